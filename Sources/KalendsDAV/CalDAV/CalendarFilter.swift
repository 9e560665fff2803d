import Foundation
import HTTPTypes
import Kalends
import KalendsFormats

/// The filter of a `calendar-query` (RFC 4791 §9.7): component filters with `is-not-defined`,
/// property and parameter filters with `text-match` (collations `i;ascii-casemap`,
/// `i;unicode-casemap` and `i;octet`; match types `equals`, `contains`, `starts-with`,
/// `ends-with`; `negate-condition`), a `time-range` on the component queried (`VEVENT` or
/// `VTODO`), either end of which may be open, and one on its `VALARM`s (when an alarm fires). A
/// time range anywhere else is refused with `supported-filter` rather than answered wrongly.
struct CalendarFilter {
  /// The component queried by time, `VEVENT` or `VTODO`, or `nil`.
  var component: String?
  /// The time range's start and end, UTC seconds; `nil` for an open end.
  var start: Int64?
  var end: Int64?
  /// The time range on the queried component's `VALARM`s: when one of them must fire.
  var alarms: (start: Int64?, end: Int64?)?
  /// The `VCALENDAR` comp-filter, judged on each candidate's text; `nil` matches everything.
  private var root: XMLElement?

  var hasTimeRange: Bool { start != nil || end != nil }

  /// Whether the filter says nothing beyond the component queried and its time range (the
  /// candidates chosen by time are then the answer, without judging their text): the
  /// `VCALENDAR` filter holds at most one comp-filter, named as the component queried, holding at
  /// most its time range.
  var isTimeRangeOnly: Bool {
    guard let root else { return true }
    guard root.children.count <= 1, let inner = root.children.first else { return root.children.isEmpty }
    return inner.name == .caldav("comp-filter") && inner.attributes["name"]?.uppercased() == component
      && inner.children.allSatisfy { $0.name == .caldav("time-range") }
  }

  init(_ filter: XMLElement?) throws {
    guard let filter else { return }
    let calendars = filter.children(.caldav("comp-filter"))
    guard filter.children.count == 1, calendars.count == 1,
      calendars[0].attributes["name"]?.uppercased() == "VCALENDAR"
    else { throw Self.unsupported("a filter is one comp-filter named VCALENDAR") }
    root = calendars[0]
    try Self.check(calendars[0], depth: 0)
    for inner in calendars[0].children(.caldav("comp-filter")) {
      if let name = inner.attributes["name"]?.uppercased(), name == "VEVENT" || name == "VTODO" {
        component = component ?? name
      }
      for alarm in inner.children(.caldav("comp-filter")) where alarm.attributes["name"]?.uppercased() == "VALARM" {
        guard let range = alarm.child(.caldav("time-range")) else { continue }
        alarms = (try range.attributes["start"].map(Self.utc), try range.attributes["end"].map(Self.utc))
        guard alarms?.start != nil || alarms?.end != nil else {
          throw DAVError(.badRequest, nil, "a time-range needs start or end")
        }
      }
      guard let range = inner.child(.caldav("time-range")) else { continue }
      start = try range.attributes["start"].map(Self.utc)
      end = try range.attributes["end"].map(Self.utc)
      guard start != nil || end != nil else { throw DAVError(.badRequest, nil, "a time-range needs start or end") }
      component = inner.attributes["name"]?.uppercased()
    }
  }

  /// Refuses what is not evaluated: a time range below the queried component, or on a property.
  private static func check(_ element: XMLElement, depth: Int) throws {
    for child in element.children {
      switch child.name {
      case .caldav("time-range"):
        let component = element.attributes["name"]?.uppercased() ?? ""
        guard element.name == .caldav("comp-filter"),
          (depth == 1 && ["VEVENT", "VTODO"].contains(component)) || (depth == 2 && component == "VALARM")
        else { throw unsupported("a time-range is evaluated on VEVENT, VTODO and their VALARMs only") }
      case .caldav("comp-filter"), .caldav("prop-filter"), .caldav("param-filter"), .caldav("text-match"),
        .caldav("is-not-defined"):
        try check(child, depth: child.name == .caldav("comp-filter") ? depth + 1 : depth)
      default:
        throw unsupported("\(child.name.local) is not a filter element")
      }
    }
  }

  /// Whether `object` passes the filter's component, property and parameter tests (its time
  /// range was applied when the candidates were chosen) and its alarm range, floating times placed
  /// in `floating`.
  func matches(_ object: CalendarObject, floatingIn floating: ZoneRules = .utc) -> Bool {
    guard let root else { return true }
    if let alarms {
      let (from, to) = (alarms.start ?? -62_135_596_800, alarms.end ?? 253_402_300_800)
      guard
        object.events.contains(where: { $0.firesAlarm(from: from, to: to, floatingIn: floating) })
          || object.reminders.contains(where: { $0.firesAlarm(from: from, to: to, floatingIn: floating) })
      else { return false }
    }
    return Self.components(root, among: ICSComponent.parse(object.file.serialized()))
  }

  private static func components(_ filter: XMLElement, among components: [ICSComponent]) -> Bool {
    let name = filter.attributes["name"]?.uppercased() ?? ""
    let named = components.filter { $0.name == name }
    if filter.child(.caldav("is-not-defined")) != nil { return named.isEmpty }
    return named.contains { component in
      filter.children(.caldav("comp-filter")).allSatisfy { Self.components($0, among: component.children) }
        && filter.children(.caldav("prop-filter")).allSatisfy { Self.property($0, of: component) }
    }
  }

  private static func property(_ filter: XMLElement, of component: ICSComponent) -> Bool {
    let name = filter.attributes["name"]?.uppercased() ?? ""
    let named = component.properties.filter { $0.name == name }
    if filter.child(.caldav("is-not-defined")) != nil { return named.isEmpty }
    return named.contains { property in
      filter.child(.caldav("text-match")).map { text($0, matches: property.value) } ?? true
        && filter.children(.caldav("param-filter")).allSatisfy { parameter in
          let value = property.parameters[parameter.attributes["name"]?.uppercased() ?? ""]
          if parameter.child(.caldav("is-not-defined")) != nil { return value == nil }
          guard let value else { return false }
          return parameter.child(.caldav("text-match")).map { text($0, matches: value) } ?? true
        }
    }
  }

  /// RFC 4791 §9.7.5 with RFC 4790's collations.
  static func text(_ match: XMLElement, matches value: String) -> Bool {
    let collation = match.attributes["collation"] ?? "i;ascii-casemap"
    let fold: (String) -> String =
      collation == "i;octet" ? { $0 } : collation == "i;unicode-casemap" ? { $0.lowercased() } : { $0.asciiLowercased }
    let (needle, haystack) = (fold(match.text), fold(value))
    let found =
      switch match.attributes["match-type"] ?? "contains" {
      case "equals": haystack == needle
      case "starts-with": haystack.hasPrefix(needle)
      case "ends-with": haystack.hasSuffix(needle)
      default: needle.isEmpty || haystack.contains(needle)
      }
    return match.attributes["negate-condition"] == "yes" ? !found : found
  }

  /// `20260105T000000Z` as UTC seconds.
  static func utc(_ text: String) throws -> Int64 {
    guard text.utf8.count == 16, text.hasSuffix("Z"), let date = LocalDateTime(iCalendar: text.dropLast()) else {
      throw DAVError(.badRequest, .caldav("valid-filter"), "a time-range is in UTC (20260105T000000Z), not \(text)")
    }
    return date.wallClockSeconds
  }

  private static func unsupported(_ what: String) -> DAVError {
    DAVError(.forbidden, .caldav("supported-filter"), "this filter is not supported: \(what)")
  }
}

extension String {
  /// ASCII letters lowercased, every other character as it is (`i;ascii-casemap`).
  fileprivate var asciiLowercased: String {
    String(
      String.UnicodeScalarView(unicodeScalars.map { $0.isASCII ? Unicode.Scalar(UInt8($0.value)).lowercasedASCII : $0 })
    )
  }
}

extension Unicode.Scalar {
  fileprivate var lowercasedASCII: Unicode.Scalar {
    (65...90).contains(value) ? Unicode.Scalar(value + 32)! : self
  }
}
