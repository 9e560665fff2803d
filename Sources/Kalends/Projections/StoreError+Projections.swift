internal import LMDB

extension StoreError {
  /// What a rebuild or catch-up reports when `projection` cannot apply the record at `position`
  /// (`error`, met while applying or indexing it): an integrity problem of that record, so that the
  /// person learns which record stops the rebuild. The rebuild is redone, and fails the same way, each
  /// time the store is opened writable; the log can still be read and verified. Storage failures, and
  /// problems that already name a record, are returned as they are.
  static func projection(_ projection: String, cannotApply position: LogPosition, _ error: any Error) -> any Error {
    let reason: String
    switch error {
    case let refusal as RecordRefusal:
      return unauthorizedRecord(at: position, refusal.reason)
    case let error as StoreError:
      switch error {
      case .malformedPayload(let text), .malformedRecord(let text): reason = text
      case .storage, .fileSystem, .integrity, .readOnly, .projectionsBehind, .projectionsUnavailable: return error
      default: reason = error.description
      }
    case is LMDBError:
      return error
    default:
      reason = "\(error)"
    }
    return StoreError.integrity(
      IntegrityProblem(
        position: position, kind: .malformedRecord,
        detail: "the \(projection) projection cannot apply this record: \(reason)"))
  }

  /// The integrity failure of a record whose author may not make it (``RecordAuthority``,
  /// ``PermissionChange``).
  static func unauthorizedRecord(at position: LogPosition, _ reason: String) -> StoreError {
    .integrity(.unauthorizedRecord(at: position, reason))
  }
}
