/// A calendar object resource, as CalDAV names what a client stores at one URL (RFC 4791 §4.1):
/// the items of one calendar that share an iCalendar `UID` — a single event, a series with its
/// detached occurrences (one ``Event`` holding them), or a reminder.
package struct CalendarObject: Sendable, Hashable {
  /// The `UID` its items share.
  public var uid: String
  /// The name a client finds it under in its calendar (`/dav/calendars/CAL/NAME.ics`): the name it
  /// was stored under (``Event/resourceName``), or else its `UID`.
  public var name: String
  /// Its events: one, unless overrides of a series were stored without their series (each then
  /// carries its `RECURRENCE-ID` in ``Event/additionalProperties``).
  public var events: [Event]
  /// Its reminder, if it is one.
  public var reminders: [Reminder]

  /// An object of `events` or `reminders` sharing `uid`, named `name` (by default, the name its
  /// items were stored under, or else `uid`).
  public init(uid: String, name: String? = nil, events: [Event] = [], reminders: [Reminder] = []) {
    self.uid = uid
    self.name = name ?? events.first?.resourceName ?? reminders.first?.resourceName ?? uid
    self.events = events
    self.reminders = reminders
  }

  /// The last log position that changed any of its items: changes exactly when one of them does.
  public var version: LogPosition {
    (events.map(\.version) + reminders.map(\.version)).max() ?? .none
  }

  /// The WebDAV dead properties of the resource (``Event/clientProperties``: every item holds the
  /// same).
  public var clientProperties: [String: String] {
    events.first?.clientProperties ?? reminders.first?.clientProperties ?? [:]
  }

  /// Its items as an iCalendar file of their own.
  public var file: ICalendar { ICalendar(events: events, reminders: reminders) }
}

/// What a write of a `CalendarObject` requires of the object stored under its name, checked in
/// the write's own transaction (HTTP's `If-Match` and `If-None-Match: *`).
package enum ObjectCondition: Sendable {
  /// Nothing: create or replace.
  case none
  /// That there is none (`If-None-Match: *`).
  case absent
  /// That there is one whose `CalendarObject.version` `matches` accepts (`If-Match`).
  case present(matching: @Sendable (LogPosition) -> Bool)

  /// Whether an object stored at `version` (`nil`: none) satisfies it.
  func holds(for version: LogPosition?) -> Bool {
    switch self {
    case .none: true
    case .absent: version == nil
    case .present(let matches): version.map(matches) ?? false
    }
  }
}
