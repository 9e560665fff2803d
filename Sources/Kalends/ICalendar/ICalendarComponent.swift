/// A component of an iCalendar file (`VCALENDAR`, `VEVENT`, `VALARM`, …) with its properties and
/// nested components, as written.
struct ICalendarComponent: Sendable {
  /// The name in upper case, such as `VEVENT`.
  var name: String
  /// The line of its `BEGIN`.
  var line: Int
  /// Its properties, in order.
  var properties: [ContentLine] = []
  /// Its nested components, in order.
  var components: [ICalendarComponent] = []

  /// Nesting deeper than this is refused (a calendar needs three levels: VCALENDAR, VEVENT, VALARM).
  static let maximumDepth = 8

  /// The first property called `name`.
  func property(_ name: String) -> ContentLine? { properties.first { $0.name == name } }

  /// Every property called `name`.
  func properties(_ name: String) -> [ContentLine] { properties.filter { $0.name == name } }

  /// The top-level components of a file (normally one `VCALENDAR`).
  static func parse(_ lines: [ContentLine]) throws(ICalendarError) -> [ICalendarComponent] {
    guard let first = lines.first, first.name == "BEGIN", first.value.uppercased() == "VCALENDAR" else {
      throw ICalendarError(line: lines.first?.line ?? 1, .notACalendar)
    }
    var roots: [ICalendarComponent] = []
    var stack: [ICalendarComponent] = []
    for line in lines {
      switch line.name {
      case "BEGIN":
        let name = line.value.uppercased()
        guard !name.isEmpty else {
          throw ICalendarError(line: line.line, .malformedLine("BEGIN has no component name"))
        }
        guard stack.count < maximumDepth else { throw ICalendarError(line: line.line, .nestedTooDeeply) }
        if stack.isEmpty && name != "VCALENDAR" { throw ICalendarError(line: line.line, .notACalendar) }
        stack.append(ICalendarComponent(name: name, line: line.line))
      case "END":
        let name = line.value.uppercased()
        guard let open = stack.popLast() else {
          throw ICalendarError(line: line.line, .malformedLine("END:\(name) closes no component"))
        }
        guard open.name == name else {
          throw ICalendarError(line: line.line, .mismatchedEnd(expected: open.name, found: name))
        }
        if stack.isEmpty { roots.append(open) } else { stack[stack.count - 1].components.append(open) }
      default:
        guard !stack.isEmpty else {
          throw ICalendarError(
            line: line.line, .malformedLine("\(line.name) is outside BEGIN:VCALENDAR … END:VCALENDAR"))
        }
        stack[stack.count - 1].properties.append(line)
      }
    }
    if let open = stack.last { throw ICalendarError(line: open.line, .unexpectedEnd(component: open.name)) }
    return roots
  }
}
