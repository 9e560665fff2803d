/// A calendar time written in RFC 3339: a date, a wall-clock time, or an instant.
///
/// - `2026-03-29`: a date (an all-day date, a date-only due date), read as its midnight.
/// - `2026-03-29T09:30:00`: a wall-clock time without zone (RFC 3339's local time, which RFC 3339
///   itself leaves to the reader: a floating time, or one in a zone given elsewhere).
/// - `2026-03-29T09:30:00Z`, `2026-03-29T09:30:00+02:00`: an instant.
///
/// Seconds are required and whole; `T` and `Z` may be lower case; `-00:00` means UTC.
public enum RFC3339Time: Hashable, Sendable {
  /// A date, as its midnight.
  case date(LocalDateTime)
  /// A wall-clock time without a zone.
  case wallClock(LocalDateTime)
  /// An instant, in UTC seconds since 1970.
  case instant(Int64)

  /// Parses one of the three forms; `nil` for anything else, including dates that do not exist.
  public init?(_ text: some StringProtocol) {
    let bytes = Array(text.utf8)
    func number(_ range: Range<Int>) -> Int? {
      guard range.upperBound <= bytes.count else { return nil }
      var value = 0
      for index in range {
        guard (48...57).contains(bytes[index]) else { return nil }
        value = value * 10 + Int(bytes[index] - 48)
      }
      return value
    }
    func byte(_ index: Int, is accepted: String) -> Bool {
      index < bytes.count && accepted.utf8.contains(bytes[index])
    }
    guard let year = number(0..<4), byte(4, is: "-"), let month = number(5..<7), byte(7, is: "-"),
      let day = number(8..<10)
    else { return nil }
    if bytes.count == 10 {
      guard let date = LocalDateTime(year: year, month: month, day: day) else { return nil }
      self = .date(date)
      return
    }
    guard byte(10, is: "Tt"), let hour = number(11..<13), byte(13, is: ":"), let minute = number(14..<16),
      byte(16, is: ":"), let second = number(17..<19),
      let local = LocalDateTime(year: year, month: month, day: day, hour: hour, minute: minute, second: second)
    else { return nil }
    switch bytes.count {
    case 19:
      self = .wallClock(local)
    case 20 where byte(19, is: "Zz"):
      self = .instant(local.wallClockSeconds)
    case 25 where byte(19, is: "+-") && byte(22, is: ":"):
      guard let hours = number(20..<22), let minutes = number(23..<25), hours <= 23, minutes <= 59 else { return nil }
      let offset = Int64(hours * 3600 + minutes * 60)
      self = .instant(local.wallClockSeconds - (bytes[19] == UInt8(ascii: "-") ? -offset : offset))
    default:
      return nil
    }
  }

  /// The wall-clock time this value shows in `zone`: a date or a wall-clock time as written, an
  /// instant converted (to UTC when `zone` is `nil`). `nil` outside years 1…9999.
  public func wallClock(in zone: ZoneRules?) -> LocalDateTime? {
    switch self {
    case .date(let local), .wallClock(let local): local
    case .instant(let utc): (zone ?? .utc).localDateTime(atUTC: utc)
    }
  }

  /// Whether this is a date without a time of day.
  public var isDate: Bool {
    if case .date = self { return true }
    return false
  }

  /// Whether this is an instant (written with `Z` or an offset).
  public var isInstant: Bool {
    if case .instant = self { return true }
    return false
  }

  /// The text of a wall-clock time: in `zone`, the instant it names with the zone's offset there
  /// (`2026-03-29T09:00:00+02:00`, `Z` for offset zero; a time skipped by a clock change comes out
  /// as the instant it is read as); without a zone, the floating time (`2026-03-29T09:00:00`).
  public static func text(for local: LocalDateTime, in zone: ZoneRules?) -> String {
    guard let zone else { return local.description }
    let utc = zone.resolve(local)
    let offset = zone.offset(atUTC: utc)
    guard offset % 60 == 0, let shown = zone.localDateTime(atUTC: utc) else {
      return (LocalDateTime(wallClockSeconds: utc)?.description ?? local.description) + "Z"
    }
    guard offset != 0 else { return shown.description + "Z" }
    let minutes = abs(offset) / 60
    let sign = offset < 0 ? "-" : "+"
    return shown.description + sign + pad(minutes / 60) + ":" + pad(minutes % 60)
  }

  /// The text of the date of `local`: `2026-03-29`.
  public static func dateText(for local: LocalDateTime) -> String {
    String(local.description.prefix(10))
  }

  private static func pad(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
}
