/// How an ``Environment`` is opened. Every field has a safe default.
package struct EnvironmentOptions: Sendable, Hashable {
  /// How much of a commit reaches the disk before the commit returns.
  package enum Durability: Sendable, Hashable {
    /// Data and meta pages are flushed on every commit (the default): a commit that returned survives
    /// a power loss.
    case full
    /// The meta page is not flushed: after a power loss the last commit may be rolled back, but the
    /// database stays consistent.
    case noMetaSync
    /// Nothing is flushed by commits; the operating system writes when it likes. Survives a process
    /// crash, not a power loss. For bulk loads and benchmarks, followed by ``Environment/sync(force:)``.
    case noSync
  }

  /// The initial size of the memory map in bytes. The file only grows as data is written.
  package var mapSize: Int
  /// The largest the map may grow to automatically; a write beyond it fails with ``LMDBError/mapFull``.
  package var maximumMapSize: Int
  /// Whether a write that fills the map grows it and retries (the default) instead of failing.
  package var growsMapAutomatically: Bool
  /// The largest number of named databases.
  package var maxDatabases: UInt32
  /// The largest number of concurrent read transactions across all processes.
  package var maxReaders: UInt32
  /// Opens without write access: every write fails with ``LMDBError/readOnly``.
  package var readOnly: Bool
  /// See ``Durability``.
  package var durability: Durability
  /// Permissions of newly created files (owner read/write only by default).
  package var fileMode: UInt32
  /// Turns off the operating system's read-ahead, which helps random reads on databases larger than RAM.
  package var disablesReadAhead: Bool
  /// Opens without LMDB's lock file (`MDB_NOLOCK`): only for a caller that has made sure, by a lock
  /// of its own, that no other process or thread uses the environment meanwhile.
  package var withoutLocking = false

  /// Options with safe defaults: 64 MiB initial map growing up to 1 TiB, 32 databases, 126 readers,
  /// full durability, mode 0600.
  package init(
    mapSize: Int = 64 << 20,
    maximumMapSize: Int = 1 << 40,
    growsMapAutomatically: Bool = true,
    maxDatabases: UInt32 = 32,
    maxReaders: UInt32 = 126,
    readOnly: Bool = false,
    durability: Durability = .full,
    fileMode: UInt32 = 0o600,
    disablesReadAhead: Bool = false
  ) {
    self.mapSize = mapSize
    self.maximumMapSize = maximumMapSize
    self.growsMapAutomatically = growsMapAutomatically
    self.maxDatabases = maxDatabases
    self.maxReaders = maxReaders
    self.readOnly = readOnly
    self.durability = durability
    self.fileMode = fileMode
    self.disablesReadAhead = disablesReadAhead
  }
}
