import Foundation
import Kalends

/// The text shape of the fleet's messages that carry a signed note (`CheckpointMessage`,
/// `FleetVerdict`): header lines, a blank line, then the note as C2SP signed-note text (or nothing).
enum NoteEnvelope {
  /// `head` joined by line feeds, a blank line, and `note`.
  static func bytes(head: [String], note: SignedNote?) -> [UInt8] {
    Array((head.joined(separator: "\n") + "\n\n" + (note?.description ?? "")).utf8)
  }

  /// The header lines and the text after the blank line; `nil` when there is no blank line.
  static func split(_ bytes: [UInt8]) -> (head: [Substring], note: Substring)? {
    let text = String(decoding: bytes, as: UTF8.self)
    guard let blank = text.range(of: "\n\n") else { return nil }
    return (
      text[..<blank.lowerBound].split(separator: "\n", omittingEmptySubsequences: false), text[blank.upperBound...]
    )
  }
}
