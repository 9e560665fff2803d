/// Why a Merkle proof does not prove what it claims. Checking a proof needs no store: these are
/// the answers an auditor gets from ``InclusionProof/check(leafHash:against:)`` and
/// ``ConsistencyProof/check(from:to:)``.
public enum ProofFailure: Error, Hashable, Sendable, CustomStringConvertible {
  /// The leaf index is not below the tree size.
  case indexOutOfRange(index: UInt64, size: UInt64)
  /// The proof is for other tree sizes than the heads it is checked against.
  case sizeMismatch(proof: UInt64, head: UInt64)
  /// The old tree is larger than the new one: a log never shrinks.
  case shrinking(old: UInt64, new: UInt64)
  /// The path has the wrong number of hashes for its sizes.
  case wrongLength(expected: Int, found: Int)
  /// The path leads to another root than the head's: the leaf is not in that tree, or the trees
  /// are not one log.
  case rootMismatch(computed: RecordHash, expected: RecordHash)
  /// The checkpoint a proof rests on is not signed by the trusted key, is for another log, or is
  /// malformed.
  case untrustedCheckpoint(NoteError)
  /// A proof bundle is not well formed, or the record it carries does not decode or does not hash
  /// to the hash it carries.
  case malformedBundle(String)

  public var description: String {
    switch self {
    case .indexOutOfRange(let index, let size): "leaf \(index) is outside a tree of \(size) leaves"
    case .sizeMismatch(let proof, let head): "the proof is for a tree of \(proof) leaves, the head has \(head)"
    case .shrinking(let old, let new): "a tree of \(old) leaves cannot grow into one of \(new)"
    case .wrongLength(let expected, let found):
      "the path has \(found) hashes where its sizes need \(expected): it was altered or cut"
    case .rootMismatch(let computed, let expected):
      "the path leads to root \(computed.shortHex)…, not \(expected.shortHex)…: the proof does not hold"
    case .untrustedCheckpoint(let error): "the checkpoint cannot be trusted: \(error)"
    case .malformedBundle(let reason): "the proof bundle is malformed: \(reason)"
    }
  }
}
