/// Why a signed note, a key or a checkpoint was refused. Checking notes needs no store.
public enum NoteError: Error, Hashable, Sendable, CustomStringConvertible {
  /// The text is not a well-formed signed note, key or checkpoint; the reason says where.
  case malformed(String)
  /// No signature on the note is by the key asked for (by name and key ID).
  case notSignedBy(String)
  /// A signature by the key asked for does not verify: the note was altered, or forged.
  case badSignature(String)

  public var description: String {
    switch self {
    case .malformed(let reason): "malformed: \(reason)"
    case .notSignedBy(let key): "the note carries no signature by \(key)"
    case .badSignature(let key): "the signature by \(key) does not verify: the note was altered or forged"
    }
  }
}
