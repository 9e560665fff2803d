/// The first place where the stored log is not what was appended.
public struct IntegrityProblem: Hashable, Sendable, CustomStringConvertible {
  /// What kind of damage was found.
  public enum Kind: String, Sendable, Hashable {
    /// A position between 1 and the head has no record.
    case missingRecord
    /// A key in the log is not a position in sequence.
    case unexpectedKey
    /// A record's bytes cannot be decoded.
    case malformedRecord
    /// A record states a different position than its key.
    case positionMismatch
    /// A record's stored hash differs from the hash of its bytes: it was altered.
    case hashMismatch
    /// A record's previous-hash differs from the hash of the record before it.
    case brokenChain
    /// The first record is not the store's creation record.
    case genesisMismatch
    /// A record's author may not make a record of its kind (an app deciding its own access, a policy
    /// lifting another's restriction): the log holds a record no Kalends would write.
    case unauthorizedRecord
    /// The head recorded in the metadata disagrees with the log.
    case headMismatch
    /// The stored Merkle tree (a node, or its right edge) differs from the tree of the log's
    /// records; the position is the first record under the node that differs.
    case treeMismatch
    /// The log does not extend a checkpoint kept from before: its first records no longer make
    /// the tree the checkpoint states, or the log is shorter than the checkpoint (records were
    /// rewritten, dropped, reordered or cut off). The position is the checkpoint's last one, or the
    /// first missing one.
    case checkpointMismatch
    /// A record's content is erased, but no later `contentErased` record names it: the content was
    /// dropped from the files, not erased by the person or a retention policy. The position is
    /// the first such record.
    case unrecordedErasure
    /// A page of the data file is damaged (overwritten, or cut off by a truncation), so LMDB cannot
    /// read it safely; the position is the first record on or after it (`0` outside the log).
    case damagedPage
  }

  /// The first position that is wrong.
  public let position: LogPosition
  /// What is wrong there.
  public let kind: Kind
  /// Details for a person.
  public let detail: String

  /// A problem of `kind` at `position`.
  public init(position: LogPosition, kind: Kind, detail: String) {
    self.position = position
    self.kind = kind
    self.detail = detail
  }

  public var description: String { "position \(position): \(detail)" }

  /// The problem of a record at `position` whose author may not make it, for `reason`
  /// (``RecordAuthority``, ``PermissionChange``).
  static func unauthorizedRecord(at position: LogPosition, _ reason: String) -> IntegrityProblem {
    IntegrityProblem(
      position: position, kind: .unauthorizedRecord, detail: "a record its author may not make: \(reason)")
  }
}
