/// A calendar (EventKit's `EKCalendar`): a named container of events, reminders or both.
///
/// Named `EventCalendar` so that it never clashes with Foundation's `Calendar`.
public struct EventCalendar: Hashable, Sendable {
  /// The stable identifier.
  public package(set) var id: ObjectID
  /// The display name.
  public var title: String
  /// The colour, as `#RRGGBB`.
  public var color: String
  /// The account it belongs to.
  public var source: CalendarSource
  /// The kinds of item it holds; fixed once the calendar is saved.
  public var allowedEntityTypes: EntityTypes
  /// Whether items may be added, changed or removed.
  public var allowsContentModifications: Bool
  /// Where an imported calendar's items came from: the iCalendar file's `X-WR-RELCALID`, or the
  /// file's absolute path; `nil` for a calendar not made by an import. An import into
  /// ``ImportDestination/source(_:new:)`` finds the calendar by it.
  public var importSource: String?
  /// The name a CalDAV client gave the calendar when it made it (`/dav/calendars/NAME/`), by which
  /// the DAV front end keeps serving it there; `nil` for a calendar named by its identifier.
  public var resourceName: String?
  /// What clients stored on the calendar that Kalends does not model — WebDAV's dead properties
  /// (RFC 4918 §4.2), such as Apple's `calendar-order` or CalDAV's `calendar-timezone` — by name in
  /// Clark notation (`{urn:ietf:params:xml:ns:caldav}calendar-description`), each value as the
  /// client wrote it (XML content). Kept and served back unchanged; at most
  /// ``maximumClientProperties``, each value at most 64 KiB.
  public var clientProperties: [String: String] = [:]
  /// The most ``clientProperties`` a calendar keeps.
  public static let maximumClientProperties = 64
  /// The log position that last changed it; `.none` before it is first saved.
  public internal(set) var version: LogPosition

  /// A new calendar, not yet saved.
  public init(
    title: String, color: String = "#1BADF8", source: CalendarSource = .local,
    allowedEntityTypes: EntityTypes = .events, allowsContentModifications: Bool = true
  ) {
    self.init(id: .random(), title: title, color: color, source: source)
    self.allowedEntityTypes = allowedEntityTypes
    self.allowsContentModifications = allowsContentModifications
  }

  /// A calendar of a known identifier, as a stored one is decoded (no random identifier made to be
  /// replaced: every request reads calendars).
  init(id: ObjectID, title: String, color: String = "#1BADF8", source: CalendarSource = .local) {
    self.id = id
    self.title = title
    self.color = color
    self.source = source
    self.allowedEntityTypes = .events
    self.allowsContentModifications = true
    self.version = .none
  }
}
