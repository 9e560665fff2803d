import LMDB

/// Why a store operation failed. Every case says what went wrong and what to do.
///
/// A failed operation changes nothing: writes happen in one transaction that is rolled back.
public enum StoreError: Error, Hashable, Sendable, CustomStringConvertible {
  /// The broad class of a failure, which the CLI maps to its exit status.
  public enum Category: String, Sendable, Hashable {
    /// The input was invalid; fix it and retry.
    case invalidInput
    /// The thing asked for does not exist.
    case notFound
    /// The operation conflicts with the current state (it already exists, it changed meanwhile).
    case conflict
    /// The caller may not do this.
    case accessRefused
    /// Stored data failed an integrity check.
    case integrity
    /// The storage layer failed (disk full, permissions, I/O).
    case storage
  }

  /// No store exists at the path.
  case storeNotFound(path: String)
  /// A store already exists at the path.
  case storeAlreadyExists(path: String)
  /// Something other than an empty directory is at the path a new copy (a backup) would take.
  case destinationExists(path: String)
  /// Another process has the store open, and the operation needs it alone (compaction).
  case storeInUse(path: String)
  /// The path holds something that is not a Kalends store.
  case notAStore(path: String, reason: String)
  /// The store was written by a newer Kalends in a layout this version cannot read.
  case unsupportedStoreFormat(found: UInt32, supported: UInt32)
  /// An argument was invalid.
  case invalidInput(String)
  /// No record at this position.
  case recordNotFound(LogPosition, head: LogPosition)
  /// A stored record could not be decoded.
  case malformedRecord(String)
  /// A payload is not a well-formed field sequence, or lacks a required field.
  case malformedPayload(String)
  /// A record was written in a format version newer than this Kalends.
  case unsupportedRecordVersion(UInt8)
  /// The log or its metadata failed an integrity check.
  case integrity(IntegrityProblem)
  /// The store is open read-only.
  case readOnly
  /// LMDB or the operating system failed.
  case storage(StorageFailure)
  /// A file-system operation around the store failed.
  case fileSystem(String)
  /// The store was opened read-only and its projections were never built, so it cannot answer
  /// queries (the log itself can still be read and verified).
  case projectionsUnavailable
  /// The store was opened read-only and was written by a Kalends from before the Merkle tree, so
  /// it has no tree heads or proofs yet: open it writable once to build the tree.
  case treeUnavailable
  /// A write was refused because the projection named is not at the log head in this Kalends'
  /// version: another process is rebuilding or catching it up (or runs another version). Retry.
  case projectionsBehind(String, at: LogPosition, head: LogPosition)
  /// A calendar, event or reminder was refused.
  case calendar(CalendarError)
  /// A privacy operation or a client's call was refused.
  case access(AccessError)
  /// An iCalendar file could not be read or imported (the line and the reason); nothing was imported.
  case iCalendar(ICalendarError)
  /// A contact or a group was refused.
  case contact(ContactError)
  /// A vCard file could not be read or imported (the line and the reason); nothing was imported.
  case vCard(VCardError)

  /// The broad class of this failure.
  public var category: Category {
    switch self {
    case .storeNotFound, .recordNotFound: .notFound
    case .storeAlreadyExists, .destinationExists, .storeInUse: .conflict
    case .invalidInput, .iCalendar, .vCard: .invalidInput
    case .notAStore, .unsupportedStoreFormat, .malformedRecord, .malformedPayload, .unsupportedRecordVersion,
      .integrity:
      .integrity
    case .readOnly: .accessRefused
    case .projectionsUnavailable, .treeUnavailable: .storage
    case .projectionsBehind: .conflict
    case .calendar(let error): error.category
    case .contact(let error): error.category
    case .access(let error): error.category
    case .storage(let error): error.indicatesCorruption ? .integrity : .storage
    case .fileSystem: .storage
    }
  }

  public var description: String {
    switch self {
    case .storeNotFound(let path):
      "no store at \(path) — create one with `kalends init`, or point --store / KALENDS_STORE at an existing store"
    case .storeAlreadyExists(let path):
      "a store already exists at \(path) — use it, or choose another path"
    case .notAStore(let path, let reason):
      "\(path) is not a Kalends store (\(reason)) — check the path"
    case .unsupportedStoreFormat(let found, let supported):
      "the store has layout version \(found), this kalends reads up to \(supported) — upgrade kalends"
    case .destinationExists(let path):
      "\(path) already exists and is not an empty directory — choose a new path"
    case .storeInUse(let path):
      "another process has the store at \(path) open — stop it (the server, a watcher) and run again"
    case .invalidInput(let message):
      "\(message) — fix the input and retry"
    case .recordNotFound(let position, let head):
      head == .none
        ? "no record at position \(position): the log is empty — append a record first"
        : "no record at position \(position) — positions run from 1 to \(head)"
    case .malformedRecord(let reason):
      "a stored record is malformed: \(reason) — run `kalends verify` to locate the damage"
    case .malformedPayload(let reason):
      "a record payload is malformed: \(reason) — run `kalends verify` to locate the damage"
    case .unsupportedRecordVersion(let version):
      "a record has format version \(version), newer than this kalends reads — upgrade kalends"
    case .integrity(let problem):
      "integrity check failed: \(problem) — run `kalends verify`, then restore from a backup"
    case .readOnly:
      "the store is open read-only — open it writable to change it"
    case .storage(let error):
      error.description
    case .fileSystem(let message):
      message
    case .calendar(let error):
      error.description
    case .access(let error):
      error.description
    case .iCalendar(let error):
      "\(error) (nothing was imported)"
    case .vCard(let error):
      "\(error) (nothing was imported)"
    case .contact(let error):
      error.description
    case .projectionsUnavailable:
      "the store's projections have not been built — open it writable once (for example `kalends rebuild`)"
    case .treeUnavailable:
      "the store was written before Kalends kept a Merkle tree — open it writable once (for example `kalends verify`) to build it"
    case .projectionsBehind(let name, let position, let head):
      "nothing was written: the projection \(name) is at \(position), not at the head \(head) — another process is "
        + "rebuilding or catching it up (or runs another version of Kalends); retry when it has finished"
    }
  }

  /// Runs `body`, turning LMDB errors into store errors and letting every other error through.
  static func mappingStorageErrors<R>(_ body: () throws -> R) throws -> R {
    do {
      return try body()
    } catch let error as LMDBError {
      throw error == .readOnly ? StoreError.readOnly : StoreError.storage(StorageFailure(error))
    }
  }

  /// Runs `body`, turning LMDB errors into ``storage(_:)`` and letting store errors through.
  static func wrapping<R>(_ body: () throws -> R) throws(StoreError) -> R {
    do {
      return try body()
    } catch let error as StoreError {
      throw error
    } catch let error as LMDBError {
      throw error == .readOnly ? .readOnly : .storage(StorageFailure(error))
    } catch {
      throw .fileSystem("\(error)")
    }
  }
}
