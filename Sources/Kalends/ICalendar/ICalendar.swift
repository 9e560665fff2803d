/// The events and reminders of an iCalendar (RFC 5545) file, in Kalends' model: read from a file
/// with ``init(parsing:)-(String)`` or from bytes, written to one with ``serialized(productID:stamp:)``.
///
/// Reading unfolds lines, reads escapes and parameters, and turns `VEVENT`s into ``Event`` series
/// (`RECURRENCE-ID` overrides become detached occurrences; `RANGE=THISANDFUTURE` splits the series
/// there, the rest continuing under the `UID` `uid/RECURRENCE-ID`) and `VTODO`s into ``Reminder``s.
/// `TZID`s become IANA zones (see the README for the rules); `X-` and other properties Kalends does
/// not model are kept verbatim in `additionalProperties`. Any error stops the reading with the line
/// and the reason; the items are not saved anywhere until imported into a store.
public struct ICalendar: Sendable {
  /// The calendar's name (`X-WR-CALNAME`), if the file gives one.
  public var name: String?
  /// The events: each series once, with its detached occurrences; without calendar.
  public var events: [Event]
  /// The reminders (`VTODO`s); without calendar.
  public var reminders: [Reminder]
  /// The calendar's stable identifier (`X-WR-RELCALID`), if the file gives one.
  public var relationID: String?
  /// The components read and not kept, by name (`VJOURNAL`, `VFREEBUSY`, `VAVAILABILITY`, an
  /// `X-` component, a root that is not a `VCALENDAR`), with how many of each.
  public var skipped: [String: Int] = [:]
  /// The line each event begins on, for errors found when saving.
  var eventLines: [Int] = []
  /// The line each reminder begins on.
  var reminderLines: [Int] = []

  /// A calendar of these items, to serialize.
  public init(name: String? = nil, events: [Event] = [], reminders: [Reminder] = []) {
    self.name = name
    self.events = events
    self.reminders = reminders
  }

  /// Reads the bytes of an `.ics` file (UTF-8, CRLF or LF line ends).
  public init(parsing bytes: some Collection<UInt8>) throws(ICalendarError) {
    let lines = try ContentLineReader.lines(of: Array(bytes))
    self = try ICalendarReader.read(ICalendarComponent.parse(lines))
  }

  /// Reads the text of an `.ics` file.
  public init(parsing text: String) throws(ICalendarError) {
    try self.init(parsing: text.utf8)
  }
}
