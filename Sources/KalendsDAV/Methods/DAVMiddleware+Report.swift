import Foundation
import HTTPTypes
import Hummingbird
import Kalends
import KalendsServer

extension DAVMiddleware {
  /// REPORT on a calendar: `calendar-query` (RFC 4791 §7.8), `calendar-multiget` (§7.9),
  /// `free-busy-query` (§7.10) and `sync-collection` (RFC 6578); on the address book, its queries;
  /// on the principal, its searches.
  func report(_ request: Request, _ path: DAVPath, _ context: ServerContext) async throws -> Response {
    if case .addressBook(let book) = path {
      guard let body = try await Self.body(request) else { throw DAVError(.badRequest, nil, "a REPORT needs a body") }
      return try await reportContacts(body, book: book, context)
    }
    if path == .principal {
      guard let body = try await Self.body(request) else { throw DAVError(.badRequest, nil, "a REPORT needs a body") }
      return try await reportPrincipals(body, context)
    }
    guard case .calendar(let id) = path else {
      throw DAVError(.forbidden, .dav("supported-report"), "reports are made on a calendar collection")
    }
    guard let body = try await Self.body(request) else { throw DAVError(.badRequest, nil, "a REPORT needs a body") }
    let selection = PropertySelection(body)
    let (calendar, use) = try await calendar(id, context, reading: true)
    // Floating times and dates, in a filter, an expansion or an alarm's range, fall in this zone.
    let floating = try Self.floatingZone(asked: body, of: calendar)
    if body.name == .dav("sync-collection") {
      return try await sync(body, selection, id, request.uri.path, floating, use)
    }
    if body.name == .caldav("free-busy-query") { return try await freeBusy(body, id, use) }
    let objects: [CalendarObject]
    var missing: [String] = []
    switch body.name {
    case .caldav("calendar-query"):
      let filter = try CalendarFilter(body.child(.caldav("filter")))
      objects = try await server.withStore(use) {
        let candidates = try Self.query(filter, in: id, floatingIn: floating, use.session)
        return filter.isTimeRangeOnly ? candidates : candidates.filter { filter.matches($0, floatingIn: floating) }
      }
    case .caldav("calendar-multiget"):
      var names: [String] = []
      for href in body.children(.dav("href")) {
        let text = href.text.trimmingCharacters(in: .whitespacesAndNewlines)
        let path = URLComponents(string: text)?.path ?? text
        switch DAVPath(path) {
        case .object(let calendar, let name)? where calendar == id: names.append(name)
        // The calendar by the name the request gave it (a calendar its client made under a name
        // of its own): its objects are asked for by that name too.
        case .namedObject(let calendar, let name)? where DAVPath.requestName.map { $0 == (id, calendar) } ?? false:
          names.append(name)
        default: missing.append(text)
        }
      }
      let asked = names
      let found = try await server.withStore(use) {
        try asked.map { name in (name, try use.session.calendarObject(named: name, inCalendar: id)) }
      }
      objects = found.compactMap(\.1)
      missing += found.filter { $0.1 == nil }.map { DAVPath.object($0.0, in: id) }
    default:
      throw DAVError(.forbidden, .dav("supported-report"), "\(body.name) is not a report this server makes")
    }
    let expand = try Self.expansion(asked: body, floatingIn: floating)
    try Self.checkExpansion(expand, of: objects)
    var tail = Multistatus()
    for href in missing { tail.add(href, status: "404 Not Found") }
    return answer(objects, in: id, expand, selection, use, then: tail.responses + "</D:multistatus>\n")
  }

  /// The multistatus of `objects` (each with what `selection` asks, expanded as `expand` says),
  /// then `tail` (more responses, and the document's end). With an expansion it is streamed: each
  /// object's response is written and sent before the next is built, so an answer near the bound
  /// of ``maximumExpandedBytes`` holds one object's expansion in memory at a time, never the
  /// whole; without one it is sent whole.
  private func answer(
    _ objects: [CalendarObject], in id: ObjectID, _ expand: Expansion?, _ selection: PropertySelection,
    _ use: StoreServer.AppUse, then tail: String
  ) -> Response {
    let (positions, texts) = (use.positions, objectTexts)
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

  /// `sync-collection` (RFC 6578 §3): the objects changed since the token (every one for an empty
  /// token) with the properties asked, a `404` for each gone, and the next token. With `DAV:limit`,
  /// at most that many, the request-URI then answered `507` (§3.6), and a token that skips nothing.
  private func sync(
    _ body: XMLElement, _ selection: PropertySelection, _ id: ObjectID, _ href: String, _ floating: ZoneRules,
    _ use: StoreServer.AppUse
  ) async throws -> Response {
    let position = try SyncToken.position(body.child(.dav("sync-token"))?.text ?? "", use.positions)
    if let level = body.child(.dav("sync-level"))?.text.trimmingCharacters(in: .whitespaces), level != "1",
      level != "infinite", level != "infinity"
    {
      throw DAVError(.badRequest, nil, "sync-level is 1 or infinite, not \(level)")
    }
    let asked = try Self.limit(body, XMLName.dav)
    guard
      let changes = try await server.withStore(
        use,
        {
          try Self.mapped { try use.session.calendarChanges(inCalendar: id, after: position, limit: asked) }
        })
    else { throw DAVError(.notFound, nil, "no calendar \(id) is among this app's calendars") }
    let expand = try Self.expansion(asked: body, floatingIn: floating)
    try Self.checkExpansion(expand, of: changes.objects)
    var tail = Multistatus()
    for name in changes.removed { tail.add(DAVPath.object(name, in: id), status: "404 Not Found") }
    if changes.isTruncated { tail.add(href, status: "507 Insufficient Storage") }
    let end = tail.finished(syncToken: SyncToken.text(changes.position, use.positions))
    return answer(
      changes.objects, in: id, expand, selection, use, then: String(end.dropFirst(Multistatus.opening.count)))
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
