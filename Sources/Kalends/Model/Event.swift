/// An event (EventKit's `EKEvent`): a span of time in a calendar, once or recurring.
///
/// Times are wall-clock values in the event's ``timeZone`` (`nil`: floating, the same wall-clock
/// time in whatever zone the viewer is in); an all-day event uses the dates of ``start`` and
/// ``end`` only, `end` being exclusive (a one-day event on March 29 ends on March 30).
///
/// A recurring event is a series: fetched by its identifier it is the series itself, whose first
/// occurrence it describes; a query returns its occurrences, each with ``occurrenceDate`` set (the
/// original start, which with ``id`` identifies the occurrence for good, even once detached).
public struct Event: Hashable, Sendable {
  /// Whether the person is shown as busy.
  public enum Availability: UInt8, Hashable, Sendable, CaseIterable {
    case notSupported = 0
    case busy
    case free
    case tentative
    case unavailable
  }

  /// The event's status as its organizer set it.
  public enum Status: UInt8, Hashable, Sendable, CaseIterable {
    case none = 0
    case confirmed
    case tentative
    case canceled
  }

  /// The stable item identifier: never changes, not even when the event moves calendar.
  public package(set) var id: ObjectID
  /// The calendar it belongs to.
  public var calendarID: ObjectID?
  /// The identifier shared by every copy of the series (iCalendar's `UID`).
  public var externalID: String
  /// The title.
  public var title: String
  /// The start, in ``timeZone`` (or floating).
  public var start: LocalDateTime?
  /// The end (exclusive), in ``timeZone`` (or floating).
  public var end: LocalDateTime?
  /// Whether it lasts whole days; then only the dates of ``start`` and ``end`` count.
  public var isAllDay: Bool
  /// The IANA time zone of its times; `nil` for a floating event.
  public var timeZone: String?
  /// Where.
  public var location: String?
  /// Free text.
  public var notes: String?
  /// A link.
  public var url: String?
  /// Whether the person is shown as busy.
  public var availability: Availability
  /// The status.
  public var status: Status
  /// Alarms relative to the start.
  public var alarms: [Alarm]
  /// Free-form categories (iCalendar's `CATEGORIES`).
  public var categories: [String]
  /// iCalendar's `SEQUENCE`: the revision its organizer gave it. An import replaces an event only
  /// with a higher one.
  public var sequence: Int
  /// iCalendar properties Kalends does not model (`X-` and unknown ones), as unfolded content lines
  /// (`X-APPLE-TRAVEL-ADVISORY-BEHAVIOR:AUTOMATIC`), kept from an import and written again on export.
  public var additionalProperties: [String]
  /// The name a CalDAV client stored it under (its resource's last path segment without `.ics`),
  /// when that is not its `UID`: many clients name resources by a random identifier. Set by
  /// `EventStore.putCalendarObject(_:inCalendar:condition:)`, kept by every other save; `nil`
  /// when the resource is named by the `UID`.
  public internal(set) var resourceName: String?
  /// For an event synced from an account (a calendar with a ``EventCalendar/remote``): the `ETag`
  /// of the server's object it was last synced from, by which a sync knows what it holds already;
  /// `nil` for every other event. Set by the sync, kept by no other save.
  public internal(set) var remoteEntityTag: String?
  /// What a client stored on the calendar object resource holding the event that Kalends does not
  /// model — WebDAV's dead properties (RFC 4918 §4.2), set by `PROPPATCH` — by name in Clark
  /// notation, each value as the client wrote it (XML content), as
  /// ``EventCalendar/clientProperties``. Every item of a resource holds the same; a `PUT` that
  /// replaces the resource keeps them (`EventStore.putCalendarObject(_:inCalendar:condition:)`),
  /// as properties outlive changes to a resource's body. At most
  /// ``EventCalendar/maximumClientProperties``, at most ``EventCalendar/maximumClientPropertyBytes``
  /// together.
  public var clientProperties: [String: String]
  /// How the end was written in the iCalendar it came from (`DTEND`, `DURATION`, or neither), so
  /// that it is written back alike: a program that stored an event without `DTEND` finds none.
  /// Times are unaffected: ``end`` always holds the end.
  public internal(set) var endProperty: EndProperty
  /// The recurrence rules; empty for a single event.
  public var recurrenceRules: [RecurrenceRule]
  /// Original starts of occurrences removed from the series (iCalendar's `EXDATE`).
  public var exceptionDates: [LocalDateTime]
  /// Extra occurrence starts beyond the rules (iCalendar's `RDATE`).
  public var recurrenceDates: [LocalDateTime]
  /// For one occurrence of a series: its original start. `nil` for the series itself and single events.
  public internal(set) var occurrenceDate: LocalDateTime?
  /// Whether this occurrence was changed on its own (saved with ``Span/thisEvent``).
  public internal(set) var isDetached: Bool
  /// For an event of the birthdays calendar (``BirthdaysCalendar``): the contact whose birthday or
  /// anniversary it is (EventKit's `birthdayContactIdentifier`); `nil` for every other event.
  public internal(set) var birthdayContactID: ObjectID?
  /// When it was first saved.
  public internal(set) var creationDate: Timestamp?
  /// When it was last saved.
  public internal(set) var lastModifiedDate: Timestamp?
  /// The log position that last changed it; `.none` before it is first saved.
  public internal(set) var version: LogPosition
  /// The occurrences of a series that were changed on their own, by original start (iCalendar's
  /// `RECURRENCE-ID` overrides). Change them by saving an occurrence with ``Span/thisEvent``.
  public internal(set) var detachedOccurrences: [LocalDateTime: Event]

  /// A new event, not yet saved. An all-day event is floating and whole days: when saved, its start
  /// goes to midnight, its end to the following midnight, and its time zone to `nil`.
  public init(
    calendarID: ObjectID?, title: String, start: LocalDateTime?, end: LocalDateTime?, timeZone: String?,
    isAllDay: Bool = false
  ) {
    self.init(
      id: .random(), externalID: ObjectID.random().description, calendarID: calendarID, title: title, start: start,
      end: end, timeZone: timeZone, isAllDay: isAllDay)
  }

  /// An event whose identifiers are known (decoded from the store): draws no random identifier,
  /// which costs a system call.
  init(
    id: ObjectID, externalID: String, calendarID: ObjectID?, title: String, start: LocalDateTime?,
    end: LocalDateTime?, timeZone: String?, isAllDay: Bool
  ) {
    self.id = id
    self.calendarID = calendarID
    self.externalID = externalID
    self.title = title
    self.start = start
    self.end = end
    self.isAllDay = isAllDay
    self.timeZone = timeZone
    self.location = nil
    self.notes = nil
    self.url = nil
    self.availability = .busy
    self.status = .none
    self.alarms = []
    self.categories = []
    self.sequence = 0
    self.additionalProperties = []
    self.resourceName = nil
    self.clientProperties = [:]
    self.endProperty = .dtend
    self.recurrenceRules = []
    self.exceptionDates = []
    self.recurrenceDates = []
    self.occurrenceDate = nil
    self.isDetached = false
    self.birthdayContactID = nil
    self.creationDate = nil
    self.lastModifiedDate = nil
    self.version = .none
    self.detachedOccurrences = [:]
  }

  /// Whether it is part of a recurring series.
  public var isRecurring: Bool { !recurrenceRules.isEmpty || !recurrenceDates.isEmpty }

  /// The event's timing as a recurrence set (a single event has one occurrence); throws the error
  /// a save would for invalid timing.
  public func recurrenceSet() throws(StoreError) -> RecurrenceSet { try SeriesEditor.recurrenceSet(of: self) }
}

extension Event {
  /// How an event's end is written in iCalendar.
  public enum EndProperty: UInt8, Hashable, Sendable {
    /// `DTEND`.
    case dtend = 0
    /// `DURATION`, from the start.
    case duration = 1
    /// Neither: the end is the start, or the next day for an all-day event (RFC 5545 §3.6.1). An
    /// end changed since is written as `DTEND`.
    case implied = 2
  }
}
