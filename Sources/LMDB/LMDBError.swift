internal import CLMDB

/// Every failure that LMDB or this wrapper can report.
///
/// Each LMDB return code has its own case, so callers can react to the ones that matter
/// (``keyExists`` for a conditional insert, ``mapFull`` when growth is disabled) and show the
/// rest. The ``description`` says what went wrong and what to do about it.
package enum LMDBError: Error, Hashable, Sendable, CustomStringConvertible {
  /// `MDB_KEYEXIST`: the key (or key/value pair) is already present and overwriting was not allowed.
  case keyExists
  /// `MDB_NOTFOUND`: no such key, or a cursor moved past the end.
  case notFound
  /// `MDB_PAGE_NOTFOUND`: a page the tree points to is missing; the file is damaged.
  case pageNotFound
  /// `MDB_CORRUPTED`: a page has the wrong type; the file is damaged.
  case corrupted
  /// `MDB_PANIC`: a meta page update failed or the environment hit a fatal error.
  case panic
  /// `MDB_VERSION_MISMATCH`: the library and the file disagree on the LMDB version.
  case versionMismatch
  /// `MDB_INVALID`: the file is not an LMDB file.
  case invalid
  /// `MDB_MAP_FULL`: the map is full and could not grow.
  case mapFull
  /// `MDB_DBS_FULL`: more named databases were opened than `maxDatabases` allows.
  case databasesFull
  /// `MDB_READERS_FULL`: every reader slot is taken.
  case readersFull
  /// `MDB_TLS_FULL`: too many thread-local keys (Windows only).
  case threadLocalStorageFull
  /// `MDB_TXN_FULL`: the transaction has too many dirty pages.
  case transactionFull
  /// `MDB_CURSOR_FULL`: the cursor stack is too deep (an LMDB internal error).
  case cursorStackFull
  /// `MDB_PAGE_FULL`: a page has not enough space (an LMDB internal error).
  case pageFull
  /// `MDB_MAP_RESIZED`: another process grew the map beyond this process's mapping.
  case mapResized
  /// `MDB_INCOMPATIBLE`: the operation does not fit the database's flags, or the flags changed.
  case incompatible
  /// `MDB_BAD_RSLOT`: a reader slot was reused wrongly.
  case badReaderSlot
  /// `MDB_BAD_TXN`: the transaction already failed, has a child, or is invalid.
  case badTransaction
  /// `MDB_BAD_VALSIZE`: a key, value or database name has an unsupported size.
  case badValueSize
  /// `MDB_BAD_DBI`: a database handle was changed or closed unexpectedly.
  case badDatabaseHandle
  /// A write was attempted on an environment opened read-only.
  case readOnly
  /// An operating-system error (`errno`), such as `ENOSPC` or `EACCES`.
  case system(errno: Int32)

  /// Maps an LMDB or `errno` return code to its case. `0` is not an error and must not be passed.
  package init(code: Int32) {
    switch code {
    case MDB_KEYEXIST: self = .keyExists
    case MDB_NOTFOUND: self = .notFound
    case MDB_PAGE_NOTFOUND: self = .pageNotFound
    case MDB_CORRUPTED: self = .corrupted
    case MDB_PANIC: self = .panic
    case MDB_VERSION_MISMATCH: self = .versionMismatch
    case MDB_INVALID: self = .invalid
    case MDB_MAP_FULL: self = .mapFull
    case MDB_DBS_FULL: self = .databasesFull
    case MDB_READERS_FULL: self = .readersFull
    case MDB_TLS_FULL: self = .threadLocalStorageFull
    case MDB_TXN_FULL: self = .transactionFull
    case MDB_CURSOR_FULL: self = .cursorStackFull
    case MDB_PAGE_FULL: self = .pageFull
    case MDB_MAP_RESIZED: self = .mapResized
    case MDB_INCOMPATIBLE: self = .incompatible
    case MDB_BAD_RSLOT: self = .badReaderSlot
    case MDB_BAD_TXN: self = .badTransaction
    case MDB_BAD_VALSIZE: self = .badValueSize
    case MDB_BAD_DBI: self = .badDatabaseHandle
    default: self = .system(errno: code)
    }
  }

  /// The LMDB or `errno` code this error stands for (`EACCES` for ``readOnly``).
  package var code: Int32 {
    switch self {
    case .keyExists: MDB_KEYEXIST
    case .notFound: MDB_NOTFOUND
    case .pageNotFound: MDB_PAGE_NOTFOUND
    case .corrupted: MDB_CORRUPTED
    case .panic: MDB_PANIC
    case .versionMismatch: MDB_VERSION_MISMATCH
    case .invalid: MDB_INVALID
    case .mapFull: MDB_MAP_FULL
    case .databasesFull: MDB_DBS_FULL
    case .readersFull: MDB_READERS_FULL
    case .threadLocalStorageFull: MDB_TLS_FULL
    case .transactionFull: MDB_TXN_FULL
    case .cursorStackFull: MDB_CURSOR_FULL
    case .pageFull: MDB_PAGE_FULL
    case .mapResized: MDB_MAP_RESIZED
    case .incompatible: MDB_INCOMPATIBLE
    case .badReaderSlot: MDB_BAD_RSLOT
    case .badTransaction: MDB_BAD_TXN
    case .badValueSize: MDB_BAD_VALSIZE
    case .badDatabaseHandle: MDB_BAD_DBI
    case .readOnly: EACCES
    case .system(let errno): errno
    }
  }

  /// True when the data file itself is damaged or unreadable as LMDB.
  package var indicatesCorruption: Bool {
    switch self {
    case .pageNotFound, .corrupted, .panic, .invalid, .versionMismatch: true
    default: false
    }
  }

  /// What went wrong, then what to do about it.
  package var description: String {
    switch self {
    case .keyExists:
      "the key already exists — write it without the no-overwrite option, or choose another key"
    case .notFound:
      "no such key — check the key, or treat absence as a normal outcome"
    case .pageNotFound:
      "a database page is missing (MDB_PAGE_NOTFOUND), the data file is damaged — restore from a backup"
    case .corrupted:
      "a database page has the wrong type (MDB_CORRUPTED), the data file is damaged — restore from a backup"
    case .panic:
      "the environment hit a fatal error (MDB_PANIC) — close every handle, reopen, and check the disk"
    case .versionMismatch:
      "the data file was written by an incompatible LMDB version — open it with the LMDB version that wrote it"
    case .invalid:
      "the file is not an LMDB database — check the path"
    case .mapFull:
      "the database reached its maximum map size — raise the maximum map size or free disk space"
    case .databasesFull:
      "too many named databases are open — raise maxDatabases when opening the environment"
    case .readersFull:
      "every reader slot is taken — close idle read transactions or raise maxReaders"
    case .threadLocalStorageFull:
      "too many thread-local storage keys — use fewer environments at once"
    case .transactionFull:
      "the transaction changed too many pages — split the work into smaller transactions"
    case .cursorStackFull:
      "the cursor stack is too deep (an LMDB internal error) — report it with the data file if you can"
    case .pageFull:
      "a page has not enough space (an LMDB internal error) — report it with the data file if you can"
    case .mapResized:
      "another process grew the database map — retry; the environment adopts the new size"
    case .incompatible:
      "the operation does not match the database's flags — open the database with the flags it was created with"
    case .badReaderSlot:
      "a reader slot was reused wrongly — do not share read transactions between threads at once"
    case .badTransaction:
      "the transaction already failed or is invalid — abort it and start a new one"
    case .badValueSize:
      "a key, value or database name has an unsupported size (keys: 1 to 511 bytes) — shorten it"
    case .badDatabaseHandle:
      "a database handle is invalid or was closed — reopen the database"
    case .readOnly:
      "the environment is open read-only — reopen it writable to change it"
    case .system(let code):
      Self.systemDescription(code)
    }
  }

  private static func systemDescription(_ code: Int32) -> String {
    let reason = String(cString: strerror(code))
    let advice: String
    switch code {
    case ENOENT: advice = "check the path"
    case EACCES, EPERM: advice = "check the file permissions, or open read-only"
    case ENOSPC: advice = "free disk space and retry; nothing was written"
    case EDQUOT: advice = "free space within your disk quota and retry; nothing was written"
    case EFBIG: advice = "raise the file size limit (ulimit -f) and retry; nothing was written"
    case EIO: advice = "check the disk; the last write may not have reached it"
    case ENOMEM: advice = "lower the map size or free memory"
    case EROFS: advice = "the file system is read-only: open read-only, or copy the store elsewhere"
    case EAGAIN, EBUSY: advice = "another process holds a lock; retry"
    case EINVAL: advice = "an argument was invalid (a bug in the caller); report it"
    default: advice = "see errno \(code)"
    }
    return "\(reason.lowercased()) — \(advice)"
  }
}
