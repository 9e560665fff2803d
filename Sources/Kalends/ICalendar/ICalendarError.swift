/// Why an iCalendar file could not be read: the line it happened on (1-based, counting physical
/// lines of the file; for a whole component, the line of its `BEGIN`) and the reason. Nothing of a
/// file that fails is imported.
public struct ICalendarError: Error, Hashable, Sendable, CustomStringConvertible {
  /// What was wrong.
  public enum Reason: Hashable, Sendable {
    /// The bytes are not UTF-8 text.
    case invalidUTF8
    /// A content line (after unfolding) is longer than 1.0625 MiB; `octets` is how much was read
    /// before giving up.
    case lineTooLong(octets: Int)
    /// A content line is not `NAME;PARAM=VALUE:value`.
    case malformedLine(String)
    /// The file does not start with `BEGIN:VCALENDAR`.
    case notACalendar
    /// The file ends in the middle of a content line: it is truncated.
    case truncated
    /// The file ends inside a component: it is truncated.
    case unexpectedEnd(component: String)
    /// An `END` that does not close the open component.
    case mismatchedEnd(expected: String, found: String)
    /// Components nested deeper than any calendar needs.
    case nestedTooDeeply
    /// A required property is missing.
    case missingProperty(component: String, property: String)
    /// A property's value cannot be read.
    case invalidValue(property: String, value: String, expected: String)
    /// A recurrence rule that Kalends cannot read or expand.
    case invalidRecurrenceRule(String)
    /// A `TZID` that names no IANA zone, no Windows zone, and no `VTIMEZONE` of the file.
    case unknownTimeZone(String)
    /// The item is valid iCalendar but the store refuses it (the store's reason).
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
      case .notACalendar: "the file does not start with BEGIN:VCALENDAR — is it an iCalendar (.ics) file?"
      case .truncated: "the file ends in the middle of a line — it is truncated; export it again"
      case .unexpectedEnd(let component):
        "the file ends inside \(component) — it is truncated; export it again"
      case .mismatchedEnd(let expected, let found): "END:\(found) where END:\(expected) was expected — fix the nesting"
      case .nestedTooDeeply: "components are nested too deeply — no calendar needs more than 8 levels"
      case .missingProperty(let component, let property): "\(component) has no \(property) — add one"
      case .invalidValue(let property, let value, let expected):
        "\(property) value \"\(Self.clipped(value))\" is not \(expected) — fix the value"
      case .invalidRecurrenceRule(let reason): "invalid recurrence rule: \(reason)"
      case .unknownTimeZone(let tzid):
        "TZID \"\(Self.clipped(tzid))\" is not an IANA or Windows time zone and the file has no VTIMEZONE for it"
          + " — add its VTIMEZONE or use an IANA name"
      case .refused(let reason): reason
      }
    return "line \(line): \(what)"
  }

  private static func clipped(_ text: String) -> String {
    text.count > 60 ? String(text.prefix(60)) + "…" : text
  }
}
