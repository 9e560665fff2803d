internal import LMDB

/// How a ``Store`` is opened.
public struct StoreOptions: Sendable, Hashable {
  /// How much of a commit reaches the disk before the commit returns.
  public enum Durability: Sendable, Hashable {
    /// Every commit is flushed (the default): an acknowledged write survives a power loss.
    case full
    /// The last commits may be rolled back by a power loss; the store stays consistent.
    case noMetaSync
    /// Commits are not flushed: they survive a process crash, not a power loss. For bulk loads and
    /// benchmarks, followed by ``Store/sync()``.
    case noSync
  }

  /// Open for reading only: queries, `verify` and audits work, writes fail with ``StoreError/readOnly``.
  public var readOnly: Bool
  /// How much of each commit reaches the disk before the commit returns (default: all of it).
  public var durability: Durability
  /// The initial map size in bytes; the map grows automatically from there.
  public var initialMapSize: Int
  /// The largest the store may grow to.
  public var maximumMapSize: Int
  /// The largest number of concurrent readers across processes.
  public var maxReaders: UInt32
  /// When set, every write that appends records also signs a checkpoint of the tree at its new
  /// head with this key and keeps it, in the same transaction: at most one per commit, coalescing
  /// a batch. The key stays outside the store; see ``Store/checkpoint(signer:)``.
  public var checkpointSigner: CheckpointSigner?
  /// How many entries one transaction of a bulk load writes (see `Store.bulkLoadProjections`);
  /// tests make it small to cross every chunk boundary.
  package var bulkLoadChunk = 1_000_000
  /// Microseconds added to the system clock for this handle's writes: tests use it to stand for a
  /// writer whose clock is wrong, and for minutes that have passed.
  package var clockSkew: Int64 = 0
  /// Writes the records that save content in format version 1 or 2, as Kalends did before format
  /// version 3, and erases without binding what is left of records erased from format 1 or 2, as
  /// versions before that binding did: tests use it to make the stores older versions left, and to
  /// check erasure on them.
  package var writesLegacyRecords = false

  /// The time a handle opened with these options stamps its records with: the system clock (and
  /// ``clockSkew``).
  func now() -> Timestamp {
    Timestamp(rawValue: Timestamp.now().rawValue &+ clockSkew)
  }

  /// Defaults: writable, fully durable, 64 MiB initial map growing up to 1 TiB, 126 readers.
  public init(
    readOnly: Bool = false,
    durability: Durability = .full,
    initialMapSize: Int = 64 << 20,
    maximumMapSize: Int = 1 << 40,
    maxReaders: UInt32 = 126,
    checkpointSigner: CheckpointSigner? = nil
  ) {
    self.readOnly = readOnly
    self.durability = durability
    self.initialMapSize = initialMapSize
    self.maximumMapSize = maximumMapSize
    self.maxReaders = maxReaders
    self.checkpointSigner = checkpointSigner
  }

  var environmentOptions: EnvironmentOptions {
    EnvironmentOptions(
      mapSize: initialMapSize, maximumMapSize: maximumMapSize, maxDatabases: 64, maxReaders: maxReaders,
      readOnly: readOnly, durability: environmentDurability)
  }

  private var environmentDurability: EnvironmentOptions.Durability {
    switch durability {
    case .full: .full
    case .noMetaSync: .noMetaSync
    case .noSync: .noSync
    }
  }
}
