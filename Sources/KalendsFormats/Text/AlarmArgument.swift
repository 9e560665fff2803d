package import Kalends

/// An alarm offset as people write it: `-15m`, `-1h`, `-2d`, `-1w`, `30s`, `0` (seconds without a
/// unit); negative is before the start.
package enum AlarmArgument {
  private static let units: [(Character, Int64)] = [("w", 604_800), ("d", 86_400), ("h", 3600), ("m", 60), ("s", 1)]

  /// The alarm `text` describes, or an error naming `--alarm`.
  package static func parse(_ text: String) throws(RequestError) -> Alarm {
    var digits = Substring(text)
    var sign: Int64 = 1
    if let first = digits.first, first == "-" || first == "+" {
      sign = first == "-" ? -1 : 1
      digits = digits.dropFirst()
    }
    var scale: Int64 = 1
    if let last = digits.last, let unit = units.first(where: { $0.0 == last }) {
      scale = unit.1
      digits = digits.dropLast()
    }
    guard !digits.isEmpty, digits.allSatisfy(\.isASCII), digits.allSatisfy(\.isNumber),
      let amount = Int64(digits), amount <= 10 * 366 * 86_400 / scale
    else {
      throw .invalidInput(
        "--alarm: \"\(text)\" is not an offset — write -15m, -1h, -2d, -1w, 30s or seconds, negative before the start")
    }
    return Alarm(relativeOffset: sign * amount * scale)
  }

  /// The alarms as JSON: `[{"relativeOffset": -900}]`.
  package static func json(_ alarms: [Alarm]) -> JSONValue {
    .array(alarms.map { .object([("relativeOffset", .number($0.relativeOffset))]) })
  }

  /// The alarms as a table cell: `-15m, -1d`.
  package static func text(_ alarms: [Alarm]) -> String {
    alarms.map(text).joined(separator: ", ")
  }

  /// The shortest text for `alarm` in the largest whole unit: `-15m`, `-1d`, `0`.
  package static func text(_ alarm: Alarm) -> String {
    let offset = alarm.relativeOffset
    guard offset != 0 else { return "0" }
    let (unit, size) = units.first { offset % $0.1 == 0 } ?? ("s", 1)
    return "\(offset / size)\(unit)"
  }
}
