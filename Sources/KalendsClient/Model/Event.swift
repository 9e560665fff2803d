public import Foundation

/// An event, or one occurrence of a recurring event: EventKit's `EKEvent`, as the server
/// describes it (docs/server.md). Times are texts as the server writes them: a wall-clock time
/// with its zone's offset (`2026-03-03T12:00:00+01:00`), a floating time without one, or a date
/// for an all-day event; ``startDate`` and ``endDate`` read them as instants.
public struct Event: Sendable, Hashable, Decodable {
  /// Its identifier (`eventIdentifier`); `nil` before it is saved.
  public internal(set) var id: String?
  /// The calendar it belongs to.
  public var calendarID: String?
  /// The title.
  public var title: String
  /// The start of the event (of this occurrence, for an occurrence), in the event's time zone.
  public var start: String?
  /// The end, exclusive.
  public var end: String?
  /// The event's time zone (IANA); `nil` for floating times and all-day events.
  public var timeZone: String?
  /// Whether it lasts whole days.
  public var isAllDay: Bool
  /// Where it takes place.
  public var location: String?
  /// Free text.
  public var notes: String?
  /// A link.
  public var url: String?
  /// Its recurrence rules, in RRULE text.
  public var recurrenceRules: [String]
  /// For an occurrence of a series: the start it has in the series.
  public internal(set) var occurrenceDate: String?
  /// Whether it is an occurrence changed apart from its series.
  public internal(set) var isDetached: Bool
  /// In the birthdays calendar: the contact whose birthday or anniversary it is (EventKit's
  /// `birthdayContactIdentifier`); `nil` for every other event.
  public internal(set) var birthdayContactID: String?
  /// Its version, as the server's entity tag gives it (`nil` before it is saved): equal while the
  /// event is unchanged, otherwise meaningless to the app (it counts nothing).
  public internal(set) var version: String?
  /// In a range query: when this occurrence starts and ends, in the viewer's time zone.
  public internal(set) var instanceStart: String?
  public internal(set) var instanceEnd: String?

  /// A new event from `start` to `end` in `timeZone`, for ``EventStore/save(_:span:)``.
  public init(calendarID: String, title: String, start: Date, end: Date, timeZone: TimeZone) {
    self.calendarID = calendarID
    self.title = title
    self.start = Self.wallClock(start, in: timeZone)
    self.end = Self.wallClock(end, in: timeZone)
    self.timeZone = timeZone.identifier
    isAllDay = false
    recurrenceRules = []
    isDetached = false
  }

  /// When it starts, as an instant; `nil` for a floating time without a known zone.
  public var startDate: Date? { Self.instant(instanceStart ?? start) }
  /// When it ends, as an instant.
  public var endDate: Date? { Self.instant(instanceEnd ?? end) }

  enum CodingKeys: String, CodingKey {
    case id
    case calendarID = "calendarId"
    case title, start, end, timeZone
    case isAllDay = "allDay"
    case location, notes, url
    case recurrenceRules, occurrenceDate, isDetached, version, instanceStart, instanceEnd
    case birthdayContactID = "birthdayContactId"
  }

  /// The JSON body that saves the fields an app sets (docs/server.md, "An event body").
  var body: [String: Any] {
    var fields: [String: Any] = ["title": title, "allDay": isAllDay, "recurrenceRules": recurrenceRules]
    if let calendarID { fields["calendarId"] = calendarID }
    if let start { fields["start"] = Self.withoutOffset(start) }
    if let end { fields["end"] = Self.withoutOffset(end) }
    if let timeZone { fields["timeZone"] = timeZone }
    fields["location"] = location ?? ""
    fields["notes"] = notes ?? ""
    fields["url"] = url ?? ""
    return fields
  }

  /// `date` as a wall-clock time in `zone`: `2026-03-03T12:00:00`.
  static func wallClock(_ date: Date, in zone: TimeZone) -> String {
    var calendar = Foundation.Calendar(identifier: .gregorian)
    calendar.timeZone = zone
    let parts = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second], from: date)
    func two(_ value: Int?) -> String { String(format: "%02d", value ?? 0) }
    return String(format: "%04d", parts.year ?? 0) + "-\(two(parts.month))-\(two(parts.day))T"
      + "\(two(parts.hour)):\(two(parts.minute)):\(two(parts.second))"
  }

  /// A time written with an offset, as the wall-clock time of its own zone: the server takes a
  /// wall-clock time with `timeZone`.
  static func withoutOffset(_ text: String) -> String {
    guard text.count > 19, text.contains("T") else { return text }
    return String(text.prefix(19))
  }

  /// The instant of a time with an offset or `Z`; `nil` otherwise.
  static func instant(_ text: String?) -> Date? {
    guard let text else { return nil }
    let formatter = ISO8601DateFormatter()
    formatter.formatOptions = [.withInternetDateTime]
    if let date = formatter.date(from: text) { return date }
    formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
    return formatter.date(from: text)
  }
}
