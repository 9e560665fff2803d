import Foundation
import HTTPTypes
import Hummingbird
import Kalends
import KalendsFormats
import KalendsServer

extension DAVMiddleware {
  /// REPORT on a calendar: `calendar-query` (RFC 4791 §7.8), `calendar-multiget` (§7.9),
  /// `free-busy-query` (§7.10) and `sync-collection` (RFC 6578).
  func reportCalendar(_ body: XMLElement, _ id: ObjectID, _ request: Request, _ context: ServerContext) async throws
    -> Response
  {
    let selection = PropertySelection(body)
    let (calendar, use) = try await calendar(id, context, reading: true)
    // Floating times and dates, in a filter, an expansion or an alarm's range, fall in this zone.
    let floating = try Self.floatingZone(asked: body, of: calendar)
    if body.name == .caldav("free-busy-query") { return try await freeBusy(body, id, use) }
    let collection = CalendarCollection(
      id: id, use: use, href: request.uri.path, expand: try Self.expansion(asked: body, floatingIn: floating),
      texts: objectTexts)
    switch body.name {
    case .dav("sync-collection"):
      return try await syncCollection(body, selection, in: collection)
    case .caldav("calendar-multiget"):
      return try await multiget(body, selection, in: collection)
    case .caldav("calendar-query"):
      let filter = try CalendarFilter(body.child(.caldav("filter")))
      let objects = try await server.withStore(use) {
        let candidates = try Self.query(filter, in: id, floatingIn: floating, use.session)
        return filter.isTimeRangeOnly ? candidates : candidates.filter { filter.matches($0, floatingIn: floating) }
      }
      return try collection.multistatus(objects, selection, then: "</D:multistatus>\n")
    default:
      throw DAVError(.forbidden, .dav("supported-report"), "\(body.name) is not a report this server makes")
    }
  }

  /// The multistatus of `objects` of calendar `id` (each with what `selection` asks, expanded as
  /// `expand` says, its text from `texts`), then `tail` (more responses, and the document's end).
  /// With an expansion it is streamed: each object's response is written and sent before the next
  /// is built, so an answer near the bound of ``maximumExpandedBytes`` holds one object's
  /// expansion in memory at a time, never the whole; without one it is sent whole.
  static func answer(
    _ objects: [CalendarObject], in id: ObjectID, _ expand: Expansion?, _ selection: PropertySelection,
    _ positions: AppPositions, _ texts: ObjectTextCache, then tail: String
  ) -> Response {
    let status = HTTPResponse.Status(code: 207, reasonPhrase: "Multi-Status")
    guard expand != nil else {
      var multistatus = Multistatus()
      for object in objects {
        selection.add(.object(object, in: id, texts: texts), to: &multistatus, positions: positions)
      }
      return Self.xml(multistatus.xml + tail, status: status)
    }
    let body = ResponseBody { writer in
      try await writer.write(ByteBuffer(string: Multistatus.opening))
      for object in objects {
        var one = Multistatus()
        selection.add(.object(object, in: id, expand: expand, texts: texts), to: &one, positions: positions)
        try await writer.write(ByteBuffer(string: one.responses))
      }
      try await writer.write(ByteBuffer(string: tail))
      try await writer.finish(nil)
    }
    return Response(status: status, headers: [.contentType: "application/xml; charset=utf-8"], body: body)
  }

  /// `free-busy-query` (RFC 4791 §7.10): a `VFREEBUSY` of the calendar's busy time in the window
  /// (``EventStore/busyPeriods(inCalendars:from:to:)``, ``ICalendar/freeBusy(_:from:to:productID:stamp:)``),
  /// as `text/calendar`.
  private func freeBusy(_ body: XMLElement, _ id: ObjectID, _ use: StoreServer.AppUse) async throws -> Response {
    guard let range = body.child(.caldav("time-range")), let startText = range.attributes["start"],
      let endText = range.attributes["end"]
    else {
      throw DAVError(.badRequest, .caldav("valid-filter"), "a free-busy-query holds a time-range with start and end")
    }
    let (start, end) = (try CalendarFilter.utc(startText), try CalendarFilter.utc(endText))
    let periods = try await server.withStore(use) {
      try Self.mapped { try use.session.busyPeriods(inCalendars: [id], from: start, to: end) }
    }
    let text = ICalendar.freeBusy(periods, from: start, to: end)
    return Response(
      status: .ok, headers: [.contentType: "text/calendar; charset=utf-8"],
      body: ResponseBody(byteBuffer: ByteBuffer(string: text)))
  }

  /// The `expand` (RFC 4791 §9.6.5) or, without one, the `limit-recurrence-set` (§9.6.6) a
  /// report's `calendar-data` asks for: its window in UTC seconds, floating times placed in
  /// `floating`; `nil` when it asks for neither.
  static func expansion(asked body: XMLElement, floatingIn floating: ZoneRules) throws -> Expansion? {
    let data = body.child(.dav("prop"))?.child(.caldav("calendar-data"))
    let asked: (Expansion.Kind, XMLElement, String)
    if let expand = data?.child(.caldav("expand")) {
      asked = (.expand, expand, "expand")
    } else if let limit = data?.child(.caldav("limit-recurrence-set")) {
      asked = (.limitRecurrenceSet, limit, "limit-recurrence-set")
    } else {
      return nil
    }
    let (kind, element, name) = asked
    guard let startText = element.attributes["start"], let endText = element.attributes["end"] else {
      throw DAVError(.badRequest, .caldav("valid-filter"), "\(name) holds a start and an end")
    }
    let (start, end) = (try CalendarFilter.utc(startText), try CalendarFilter.utc(endText))
    guard start < end else { throw DAVError(.badRequest, .caldav("valid-filter"), "\(name) ends before it starts") }
    return Expansion(kind: kind, window: start..<end, floating: floating)
  }

  /// The most instances one REPORT expands: an expansion is built in memory, and an unending
  /// series over centuries would take the server's memory and time from every other app.
  static let maximumExpandedInstances = 100_000

  /// The most bytes of calendar data one REPORT's expansion writes: a few instances of a large
  /// event (a long description, an attachment inline) are as costly as many small ones.
  static let maximumExpandedBytes = 32 << 20

  /// Refuses (`403 DAV:number-of-matches-within-limits`) an `expand` of `objects` over `window`
  /// that would write more than ``maximumExpandedInstances`` instances, or more than
  /// ``maximumExpandedBytes`` of calendar data (each instance counted at the size of its object's
  /// text, which holds at least one instance's fields), before any is built.
  static func checkExpansion(_ expansion: Expansion?, of objects: [CalendarObject]) throws {
    guard let expansion, expansion.kind == .expand else { return }
    let (window, floating) = (expansion.window, expansion.floating)
    var left = maximumExpandedInstances
    var bytes = 0
    for object in objects {
      let count = object.file.expandedInstanceCount(
        from: window.lowerBound, to: window.upperBound, floatingIn: floating, limit: left)
      left -= count
      guard left >= 0 else {
        throw DAVError(
          .forbidden, .dav("number-of-matches-within-limits"),
          "the expansion holds more than \(maximumExpandedInstances) instances — ask for a shorter window")
      }
      guard count > 0 else { continue }
      let sizes =
        object.events.map { ICalendar(events: [$0]).serialized().utf8.count }
        + object.reminders.map { ICalendar(reminders: [$0]).serialized().utf8.count }
      let size = sizes.max() ?? 0
      bytes += count * size
      guard bytes <= maximumExpandedBytes else {
        throw DAVError(
          .forbidden, .dav("number-of-matches-within-limits"),
          "the expansion would write more than \(maximumExpandedBytes >> 20) MiB — ask for a shorter window")
      }
    }
  }

  /// The zone in which a report judges floating times and dates (RFC 4791 §9.9, §9.6.5): the
  /// `VTIMEZONE` of the request's `CALDAV:timezone` (§9.8), else the calendar's `calendar-timezone`
  /// (§5.2.2), else UTC. A request's zone no IANA zone matches is refused (`403
  /// CALDAV:valid-calendar-data`, §9.8); a stored one that matches none leaves UTC.
  static func floatingZone(asked body: XMLElement, of calendar: EventCalendar) throws -> ZoneRules {
    if let asked = body.child(.caldav("timezone")) {
      guard let zone = ICalendar.zone(describedBy: asked.text) else {
        throw DAVError(
          .forbidden, .caldav("valid-calendar-data"),
          "the timezone element holds no VTIMEZONE of a zone this server knows")
      }
      return zone
    }
    let stored = calendar.clientProperties[XMLName.caldav("calendar-timezone").description]
    return stored.flatMap { ICalendar.zone(describedBy: XMLText.unescaped($0)) } ?? .utc
  }

  /// The objects of calendar `id` that `filter` selects, floating times placed in `floating`. A
  /// closed time range on events is answered from the date-range index (the instances in the
  /// window, then their objects by `UID`), never by a scan of the calendar; an open range, or one
  /// on reminders, reads the calendar's objects and keeps those that can fall in it.
  static func query(
    _ filter: CalendarFilter, in id: ObjectID, floatingIn floating: ZoneRules = .utc, _ session: EventStore
  ) throws -> [CalendarObject] {
    if filter.component == "VEVENT", let start = filter.start, let end = filter.end {
      return try session.calendarObjects(inCalendar: id, overlapping: start, end, floatingIn: floating) ?? []
    }
    let all = try session.calendarObjects(inCalendar: id) ?? []
    return all.filter { object in
      switch filter.component {
      case "VEVENT": object.events.contains { Self.mayFall($0, in: filter, floatingIn: floating) }
      case "VTODO": object.reminders.contains { Self.mayFall($0, in: filter, floatingIn: floating) }
      default: true
      }
    }
  }

  /// Whether `event` has an instance in the filter's window (open at one end or both), judged by
  /// its occurrences: a finished series is outside a window that opens after its last one.
  static func mayFall(_ event: Event, in filter: CalendarFilter, floatingIn floating: ZoneRules = .utc) -> Bool {
    guard filter.hasTimeRange else { return true }
    return event.overlaps(from: filter.start ?? .min, to: filter.end ?? .max, floatingIn: floating)
  }

  /// Whether `reminder` falls in the window as RFC 4791 §9.9 judges a `VTODO`, at any of its
  /// instances (``Reminder/overlaps(from:to:floatingIn:)``).
  static func mayFall(_ reminder: Reminder, in filter: CalendarFilter, floatingIn floating: ZoneRules = .utc) -> Bool {
    guard filter.hasTimeRange else { return true }
    return reminder.overlaps(from: filter.start ?? .min, to: filter.end ?? .max, floatingIn: floating)
  }
}
