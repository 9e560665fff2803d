internal import Foundation

/// A C2SP signed note: a text ending in a newline, a blank line, and signature lines by one or
/// more keys. Its text must be ignored unless a trusted key's signature verifies
/// (``verify(by:)``); signatures by unknown keys are kept and ignored.
public struct SignedNote: Hashable, Sendable, CustomStringConvertible {
  /// The signed text, with its final newline.
  public let text: String
  /// The signatures, in order.
  public private(set) var signatures: [NoteSignature]

  init(text: String, signatures: [NoteSignature]) {
    self.text = text
    self.signatures = signatures
  }

  /// Parses a signed note; throws ``NoteError/malformed(_:)`` unless it is one.
  public init(parsing note: String) throws(NoteError) {
    guard !note.unicodeScalars.contains(where: { $0.value < 0x20 && $0 != "\n" }) else {
      throw .malformed("a note holds no control characters but newlines")
    }
    // The text is separated from the signatures by the note's last blank line.
    guard let separator = note.range(of: "\n\n", options: .backwards) else {
      throw .malformed("a signed note ends in a blank line and signature lines")
    }
    let text = String(note[..<separator.lowerBound]) + "\n"
    let block = note[separator.upperBound...]
    guard block.hasSuffix("\n") else { throw .malformed("the last signature line does not end in a newline") }
    var signatures: [NoteSignature] = []
    for line in block.dropLast().split(separator: "\n", omittingEmptySubsequences: false) {
      let fields = line.split(separator: " ", omittingEmptySubsequences: false)
      guard fields.count == 3, fields[0] == "\u{2014}", NoteVerifier.isValidName(String(fields[1])),
        let bytes = Base64.decode(String(fields[2])), bytes.count > 4
      else { throw .malformed("a signature line is '\u{2014} NAME SIGNATURE': \(line)") }
      signatures.append(NoteSignature(name: String(fields[1]), bytes: Array(bytes)))
    }
    guard !signatures.isEmpty else { throw .malformed("a signed note has at least one signature") }
    self.init(text: text, signatures: signatures)
  }

  /// The note as text: the signed text, a blank line, the signature lines.
  public var description: String { text + "\n" + signatures.map(\.line).joined() }

  /// Checks that `verifier` signed the text; throws ``NoteError/notSignedBy(_:)`` when no
  /// signature names it, ``NoteError/badSignature(_:)`` when its signature does not verify.
  public func verify(by verifier: NoteVerifier) throws(NoteError) {
    let mine = signatures.filter { $0.name == verifier.name && $0.keyID == verifier.keyID }
    guard !mine.isEmpty else { throw .notSignedBy(verifier.description) }
    let bytes = Array(text.utf8)
    for signature in mine where !verifier.verifies(Array(signature.bytes.dropFirst(4)), of: bytes) {
      throw .badSignature(verifier.name)
    }
  }

  /// How many of `witnesses` cosigned the text with a signature that verifies.
  public func cosignatureCount(among witnesses: [NoteVerifier]) -> Int {
    witnesses.filter { (try? verify(by: $0)) != nil }.count
  }

  /// Checks that at least `quorum` of `witnesses` cosigned the text; throws
  /// ``NoteError/notSignedBy(_:)`` naming how many did.
  public func verifyCosignatures(by witnesses: [NoteVerifier], quorum: Int) throws(NoteError) {
    let count = cosignatureCount(among: witnesses)
    guard count >= quorum else {
      throw .notSignedBy("\(quorum) of the \(witnesses.count) witnesses given (\(count) cosigned)")
    }
  }

  /// This note with `signature` added (a cosignature), unless it already carries one by that key.
  public func adding(_ signature: NoteSignature) -> SignedNote {
    guard !signatures.contains(where: { $0.name == signature.name && $0.keyID == signature.keyID }) else { return self }
    var copy = self
    copy.signatures.append(signature)
    return copy
  }
}

extension NoteSignature {
  /// Parses signature lines (`— name base64`, each ending in a newline), as a witness answers.
  public static func parseLines(_ text: String) throws(NoteError) -> [NoteSignature] {
    // A note with a placeholder text parses the lines with the note's own rules.
    try SignedNote(parsing: "x\n\n" + text).signatures
  }
}
