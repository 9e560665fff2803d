import Hummingbird
import Kalends
import KalendsFormats
import KalendsServer

/// A calendar as a ``DAVCollection``: its members are its calendar objects (an event or a task
/// with its detached occurrences, under the name its client stored it by), written with the
/// `calendar-data` a report asks for — expanded or limited as it says (``Expansion``), and then
/// streamed one object at a time — from the server's cache of objects' text.
struct CalendarCollection: DAVCollection {
  /// The calendar.
  let id: ObjectID
  let use: StoreServer.AppUse
  let href: String
  /// The expansion the report's `calendar-data` asks for, if any.
  let expand: Expansion?
  /// The objects' text the server keeps.
  let texts: ObjectTextCache

  func memberName(_ path: DAVPath) -> String? {
    switch path {
    case .object(let calendar, let name) where calendar == id: name
    // The calendar by the name the request gave it (a calendar its client made under a name of
    // its own): its objects are asked for by that name too.
    case .namedObject(let calendar, let name) where DAVPath.requestName.map { $0 == (id, calendar) } ?? false: name
    default: nil
    }
  }

  func memberHref(_ name: String) -> String { DAVPath.object(name, in: id) }

  func version(of member: CalendarObject) -> LogPosition { member.version }

  func representation(of member: CalendarObject, for request: Request) -> (contentType: String, text: String) {
    ("text/calendar; charset=utf-8", request.method == .head ? "" : member.file.serialized())
  }

  var uidConflict: XMLName { .caldav("no-uid-conflict") }

  func store(_ draft: CalendarObject, named name: String, condition: ObjectCondition) throws(StoreError) -> Bool {
    try use.session.putCalendarObject(draft, inCalendar: id, condition: condition).created
  }

  func remove(named name: String, condition: ObjectCondition) throws {
    try use.session.removeCalendarObject(named: name, inCalendar: id, condition: condition)
  }

  func members(named names: [String]) throws -> [CalendarObject?] {
    try names.map { try use.session.calendarObject(named: $0, inCalendar: id) }
  }

  func changes(after position: LogPosition?, limit: Int?) throws -> DAVChanges<CalendarObject> {
    guard let changes = try use.session.calendarChanges(inCalendar: id, after: position, limit: limit) else {
      throw DAVError(.notFound, nil, "no calendar \(id) is among this app's calendars")
    }
    return DAVChanges(
      members: changes.objects, removed: changes.removed, position: changes.position,
      isTruncated: changes.isTruncated)
  }

  /// The multistatus of `members`, refused (`403 DAV:number-of-matches-within-limits`) before any
  /// is written when their expansion would pass the server's bounds
  /// (``DAVMiddleware/checkExpansion(_:of:)``).
  func multistatus(_ members: [CalendarObject], _ selection: PropertySelection, then tail: String) throws
    -> Response
  {
    try DAVMiddleware.checkExpansion(expand, of: members)
    return DAVMiddleware.answer(members, in: id, expand, selection, use.positions, texts, then: tail)
  }
}
