internal import CLMDB

/// A handle to a named (or the unnamed) database inside an ``Environment``.
///
/// Handles are cheap values, valid for the life of the environment that opened them.
package struct Database: Sendable, Hashable {
  let dbi: MDB_dbi
  /// The name it was opened with; `nil` for the unnamed main database.
  package let name: String?
}

/// Flags a database is created with. They are stored in the file and must match on every open.
package struct DatabaseOptions: OptionSet, Sendable, Hashable {
  package let rawValue: UInt32
  package init(rawValue: UInt32) { self.rawValue = rawValue }

  /// Create the database if it does not exist (write transactions only).
  package static let create = DatabaseOptions(rawValue: UInt32(MDB_CREATE))
  /// Compare keys from their last byte to their first.
  package static let reverseKey = DatabaseOptions(rawValue: UInt32(MDB_REVERSEKEY))
  /// Allow several sorted values per key.
  package static let duplicateSort = DatabaseOptions(rawValue: UInt32(MDB_DUPSORT))
  /// Keys are native-endian unsigned integers of one size.
  package static let integerKey = DatabaseOptions(rawValue: UInt32(MDB_INTEGERKEY))
  /// With ``duplicateSort``: every value has the same size.
  package static let duplicateFixed = DatabaseOptions(rawValue: UInt32(MDB_DUPFIXED))
  /// With ``duplicateSort``: values are native-endian unsigned integers.
  package static let integerDuplicate = DatabaseOptions(rawValue: UInt32(MDB_INTEGERDUP))
  /// With ``duplicateSort``: compare values from their last byte to their first.
  package static let reverseDuplicate = DatabaseOptions(rawValue: UInt32(MDB_REVERSEDUP))
}

/// How a put treats an existing key.
package struct PutOptions: OptionSet, Sendable, Hashable {
  package let rawValue: UInt32
  package init(rawValue: UInt32) { self.rawValue = rawValue }

  /// Fail with ``LMDBError/keyExists`` if the key is present.
  package static let noOverwrite = PutOptions(rawValue: UInt32(MDB_NOOVERWRITE))
  /// In a ``DatabaseOptions/duplicateSort`` database: fail if the exact pair is present.
  package static let noDuplicateData = PutOptions(rawValue: UInt32(MDB_NODUPDATA))
  /// The key sorts after every existing key: a fast append. Fails with ``LMDBError/keyExists``
  /// when it does not.
  package static let append = PutOptions(rawValue: UInt32(MDB_APPEND))
  /// In a ``DatabaseOptions/duplicateSort`` database: the value sorts after the key's existing values.
  package static let appendDuplicate = PutOptions(rawValue: UInt32(MDB_APPENDDUP))
}

/// Counts that describe a database's B-tree.
package struct DatabaseStatistics: Sendable, Hashable {
  /// Size of a page in bytes.
  package let pageSize: Int
  /// Height of the B-tree.
  package let depth: Int
  /// Internal pages.
  package let branchPages: Int
  /// Leaf pages.
  package let leafPages: Int
  /// Pages holding values too large for a leaf.
  package let overflowPages: Int
  /// Number of key/value pairs.
  package let entries: Int

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
package struct EnvironmentInfo: Sendable, Hashable {
  /// Current size of the memory map in bytes.
  package let mapSize: Int
  /// The last page number in use; `(lastPageNumber + 1) * pageSize` bytes of the file hold data.
  package let lastPageNumber: Int
  /// The id of the last committed transaction.
  package let lastTransactionID: Int
  /// Reader slots in the lock table.
  package let maxReaders: Int
  /// Reader slots used (including stale ones until they are cleared).
  package let readersUsed: Int
}
