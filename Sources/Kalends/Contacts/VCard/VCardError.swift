/// Why a vCard file could not be read: the line it happened on (1-based, counting physical lines
/// of the file; for a whole card, the line of its `BEGIN`) and the reason. Nothing of a file that
/// fails is imported.
public struct VCardError: Error, Hashable, Sendable, CustomStringConvertible {
  /// What was wrong.
  public enum Reason: Hashable, Sendable {
    /// The bytes are not UTF-8 text.
    case invalidUTF8
    /// A content line (after unfolding) is longer than 1.0625 MiB.
    case lineTooLong(octets: Int)
    /// A content line is not `group.NAME;PARAM=VALUE:value`.
    case malformedLine(String)
    /// A line outside a card: the file holds no `BEGIN:VCARD` where one belongs.
    case notAVCard
    /// The file ends in the middle of a card: it is truncated.
    case unexpectedEnd
    /// An `END` that closes no card, or a `BEGIN` inside one.
    case mismatchedNesting(String)
    /// A `VERSION` other than 3.0 and 4.0 (2.1 uses encodings this reader does not take).
    case unsupportedVersion(String)
    /// A required property is missing.
    case missingProperty(String)
    /// A property's value cannot be read.
    case invalidValue(property: String, value: String, expected: String)
    /// The card is valid vCard but the store refuses it (the store's reason).
    case refused(String)
  }

  /// The line (1-based).
  public let line: Int
  /// What was wrong.
  public let reason: Reason

  /// An error at `line`.
  public init(line: Int, _ reason: Reason) {
    self.line = line
    self.reason = reason
  }

  public var description: String {
    let what: String =
      switch reason {
      case .invalidUTF8: "the text is not UTF-8 — convert the file to UTF-8"
      case .lineTooLong(let octets):
        "a content line is longer than the \(ContentLineReader.maximumLineLength) bytes allowed (\(octets) read)"
          + " — shorten the property"
      case .malformedLine(let detail): "\(detail) — write NAME;PARAM=VALUE:value"
      case .notAVCard: "a line outside BEGIN:VCARD … END:VCARD — is it a vCard (.vcf) file?"
      case .unexpectedEnd: "the file ends inside a card — it is truncated; export it again"
      case .mismatchedNesting(let detail): "\(detail) — every BEGIN:VCARD needs its END:VCARD"
      case .unsupportedVersion(let version):
        "VERSION \(Self.clipped(version)) is not supported — export the cards as vCard 3.0 or 4.0"
      case .missingProperty(let property): "the card has no \(property) — add one"
      case .invalidValue(let property, let value, let expected):
        "\(property) value \"\(Self.clipped(value))\" is not \(expected) — fix the value"
      case .refused(let reason): reason
      }
    return "line \(line): \(what)"
  }

  private static func clipped(_ text: String) -> String {
    text.count > 60 ? String(text.prefix(60)) + "…" : text
  }
}
