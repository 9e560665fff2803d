package import LMDB

/// A failure of the storage under the store: LMDB or the operating system (a full disk, a denied
/// permission, an I/O error, a damaged data file). Carried by ``StoreError/storage(_:)``.
///
/// LMDB is an implementation detail of Kalends, not part of its API: this type says what callers
/// can act on (the system's error number, whether the data file is damaged) and what to do, in its
/// ``description``.
public struct StorageFailure: Error, Hashable, Sendable, CustomStringConvertible {
  /// What LMDB reported.
  package let underlying: LMDBError

  package init(_ underlying: LMDBError) { self.underlying = underlying }

  /// The operating system's error number (`ENOSPC`, `EACCES`, `EIO`, …) when the failure is one,
  /// else `nil` (a failure LMDB itself reports).
  public var errno: Int32? {
    if case .system(let number) = underlying { return number }
    return nil
  }

  /// LMDB's return code, or the system's error number: for reports, not for decisions.
  public var code: Int32 { underlying.code }

  /// Whether the data file itself is damaged or is not an LMDB file: restore from a backup.
  public var indicatesCorruption: Bool { underlying.indicatesCorruption }

  /// Whether the store's map is full and could not grow: free disk space or raise the map size.
  public var isMapFull: Bool { underlying == .mapFull }

  /// What went wrong, then what to do about it.
  public var description: String { underlying.description }

  package static func ~= (pattern: LMDBError, failure: StorageFailure) -> Bool { failure.underlying == pattern }
}
