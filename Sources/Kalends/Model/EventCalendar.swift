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
  /// The app that made the calendar under ``resourceName``: the name is that app's, and resolves
  /// for no other (one app cannot make another's name resolve to its calendar); `nil` when the
  /// person made it, or the store kept no maker (a name given before makers were kept), and the
  /// name then resolves for every app that sees the calendar. Set by the store when it first saves
  /// the calendar, from who saves it; never from the caller's copy.
  public internal(set) var resourceOwner: String?
  /// For a calendar of source kind ``CalendarSource/Kind/subscribed``: the feed it mirrors, set by
  /// ``EventStore/subscribe(to:title:color:)`` and kept current by its refreshes; `nil` for every
  /// other calendar, and in an app's copy of any calendar.
  public internal(set) var subscription: CalendarSubscription?
  /// For a calendar of a ``CalendarAccount`` (source kind ``CalendarSource/Kind/calDAV``): the
  /// server's collection it mirrors and how far it is synced; `nil` for every other calendar, and
  /// in an app's copy of any calendar.
  public internal(set) var remote: RemoteCollection?
  /// What clients stored on the calendar that Kalends does not model — WebDAV's dead properties
  /// (RFC 4918 §4.2), such as Apple's `calendar-order` or CalDAV's `calendar-timezone` — by name in
  /// Clark notation (`{urn:ietf:params:xml:ns:caldav}calendar-description`), each value as the
  /// client wrote it (XML content). Kept and served back unchanged; at most
  /// ``maximumClientProperties``, holding at most ``maximumClientPropertyBytes`` together.
  public var clientProperties: [String: String] = [:]
  /// The most ``clientProperties`` a calendar keeps.
  public static let maximumClientProperties = 64
  /// The most bytes (names and values, in UTF-8) the client properties of one resource — a
  /// calendar, an item, a card — hold together. Every save records them whole, so this bounds what
  /// a change of one small property adds to the log: 64 KiB, not 64 properties of 64 KiB each.
  public static let maximumClientPropertyBytes = 64 * 1024

  /// The bytes `properties` hold, as ``maximumClientPropertyBytes`` counts them.
  public static func clientPropertyBytes(_ properties: [String: String]) -> Int {
    properties.reduce(0) { $0 + $1.key.utf8.count + $1.value.utf8.count }
  }
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
