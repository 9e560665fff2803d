public import LMDB

/// How a ``Store`` is opened.
public struct StoreOptions: Sendable, Hashable {
  /// Open for reading only: queries, `verify` and audits work, writes fail with ``StoreError/readOnly``.
  public var readOnly: Bool
  /// How much of each commit reaches the disk before the commit returns (default: all of it).
  public var durability: EnvironmentOptions.Durability
  /// The initial map size in bytes; the map grows automatically from there.
  public var initialMapSize: Int
  /// The largest the store may grow to.
  public var maximumMapSize: Int
  /// The largest number of concurrent readers across processes.
  public var maxReaders: UInt32

  /// Defaults: writable, fully durable, 64 MiB initial map growing up to 1 TiB, 126 readers.
  public init(
    readOnly: Bool = false,
    durability: EnvironmentOptions.Durability = .full,
    initialMapSize: Int = 64 << 20,
    maximumMapSize: Int = 1 << 40,
    maxReaders: UInt32 = 126
  ) {
    self.readOnly = readOnly
    self.durability = durability
    self.initialMapSize = initialMapSize
    self.maximumMapSize = maximumMapSize
    self.maxReaders = maxReaders
  }

  var environmentOptions: EnvironmentOptions {
    EnvironmentOptions(
      mapSize: initialMapSize, maximumMapSize: maximumMapSize, maxDatabases: 64, maxReaders: maxReaders,
      readOnly: readOnly, durability: durability)
  }
}
