/// A C2SP tlog-checkpoint: the body a log signs — its origin, the tree size and the root hash —
/// for the log's tree head at that size.
public struct Checkpoint: Hashable, Sendable {
  /// The log's identity: `kalends/<store id>` for a Kalends store.
  public let origin: String
  /// The tree head it states.
  public let treeHead: TreeHead

  /// A checkpoint of `treeHead` for the log `origin`.
  public init(origin: String, treeHead: TreeHead) {
    self.origin = origin
    self.treeHead = treeHead
  }

  /// The note text: `origin\nsize\nbase64(root)\n`.
  public var text: String {
    "\(origin)\n\(treeHead.size)\n\(treeHead.root.base64)\n"
  }

  /// Parses a checkpoint's note text (extension lines are allowed and ignored).
  public init(parsing text: String) throws(NoteError) {
    guard text.hasSuffix("\n") else { throw .malformed("a checkpoint's text ends in a newline") }
    let lines = text.dropLast().split(separator: "\n", omittingEmptySubsequences: false)
    guard lines.count >= 3, !lines[0].isEmpty, !lines.contains(where: \.isEmpty) else {
      throw .malformed("a checkpoint is at least three non-empty lines: origin, size, root")
    }
    guard let size = UInt64(lines[1]), String(size) == lines[1] else {
      throw .malformed("the tree size '\(lines[1])' is not a decimal number without leading zeros")
    }
    guard let root = RecordHash(base64: lines[2]) else {
      throw .malformed("the root hash is not the base64 of 32 bytes")
    }
    self.init(origin: String(lines[0]), treeHead: TreeHead(size: size, root: root))
  }

  /// Parses and checks a signed checkpoint: signed by `verifier`, for the log `origin` when given.
  public static func verified(
    _ note: SignedNote, by verifier: NoteVerifier, origin: String? = nil
  ) throws(NoteError) -> Checkpoint {
    try note.verify(by: verifier)
    let checkpoint = try Checkpoint(parsing: note.text)
    if let origin, checkpoint.origin != origin {
      throw .malformed("the checkpoint is for \(checkpoint.origin), not \(origin)")
    }
    return checkpoint
  }
}
