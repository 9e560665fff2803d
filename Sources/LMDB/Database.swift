internal import CLMDB

/// A handle to a named (or the unnamed) database inside an ``Environment``.
///
/// Handles are cheap values, valid for the life of the environment that opened them.
public struct Database: Sendable, Hashable {
  let dbi: MDB_dbi
  /// The name it was opened with; `nil` for the unnamed main database.
  public let name: String?
}

/// Flags a database is created with. They are stored in the file and must match on every open.
public struct DatabaseOptions: OptionSet, Sendable, Hashable {
  public let rawValue: UInt32
  public init(rawValue: UInt32) { self.rawValue = rawValue }

  /// Create the database if it does not exist (write transactions only).
  public static let create = DatabaseOptions(rawValue: UInt32(MDB_CREATE))
  /// Compare keys from their last byte to their first.
  public static let reverseKey = DatabaseOptions(rawValue: UInt32(MDB_REVERSEKEY))
  /// Allow several sorted values per key.
  public static let duplicateSort = DatabaseOptions(rawValue: UInt32(MDB_DUPSORT))
  /// Keys are native-endian unsigned integers of one size.
  public static let integerKey = DatabaseOptions(rawValue: UInt32(MDB_INTEGERKEY))
  /// With ``duplicateSort``: every value has the same size.
  public static let duplicateFixed = DatabaseOptions(rawValue: UInt32(MDB_DUPFIXED))
  /// With ``duplicateSort``: values are native-endian unsigned integers.
  public static let integerDuplicate = DatabaseOptions(rawValue: UInt32(MDB_INTEGERDUP))
  /// With ``duplicateSort``: compare values from their last byte to their first.
  public static let reverseDuplicate = DatabaseOptions(rawValue: UInt32(MDB_REVERSEDUP))
}

/// How a put treats an existing key.
public struct PutOptions: OptionSet, Sendable, Hashable {
  public let rawValue: UInt32
  public init(rawValue: UInt32) { self.rawValue = rawValue }

  /// Fail with ``LMDBError/keyExists`` if the key is present.
  public static let noOverwrite = PutOptions(rawValue: UInt32(MDB_NOOVERWRITE))
  /// In a ``DatabaseOptions/duplicateSort`` database: fail if the exact pair is present.
  public static let noDuplicateData = PutOptions(rawValue: UInt32(MDB_NODUPDATA))
  /// The key sorts after every existing key: a fast append. Fails with ``LMDBError/keyExists``
  /// when it does not.
  public static let append = PutOptions(rawValue: UInt32(MDB_APPEND))
  /// In a ``DatabaseOptions/duplicateSort`` database: the value sorts after the key's existing values.
  public static let appendDuplicate = PutOptions(rawValue: UInt32(MDB_APPENDDUP))
}

/// Counts that describe a database's B-tree.
public struct DatabaseStatistics: Sendable, Hashable {
  /// Size of a page in bytes.
  public let pageSize: Int
  /// Height of the B-tree.
  public let depth: Int
  /// Internal pages.
  public let branchPages: Int
  /// Leaf pages.
  public let leafPages: Int
  /// Pages holding values too large for a leaf.
  public let overflowPages: Int
  /// Number of key/value pairs.
  public let entries: Int

  init(_ stat: MDB_stat) {
    pageSize = Int(stat.ms_psize)
    depth = Int(stat.ms_depth)
    branchPages = stat.ms_branch_pages
    leafPages = stat.ms_leaf_pages
    overflowPages = stat.ms_overflow_pages
    entries = stat.ms_entries
  }
}

/// A snapshot of the environment's state.
public struct EnvironmentInfo: Sendable, Hashable {
  /// Current size of the memory map in bytes.
  public let mapSize: Int
  /// The last page number in use; `(lastPageNumber + 1) * pageSize` bytes of the file hold data.
  public let lastPageNumber: Int
  /// The id of the last committed transaction.
  public let lastTransactionID: Int
  /// Reader slots in the lock table.
  public let maxReaders: Int
  /// Reader slots used (including stale ones until they are cleared).
  public let readersUsed: Int
}
