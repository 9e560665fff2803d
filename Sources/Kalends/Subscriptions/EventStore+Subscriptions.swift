internal import LMDB

extension EventStore {
  /// Subscribes the person to the calendar feed at `url` (EventKit's subscribed calendars): a new
  /// read-only event calendar in a source of its own, of kind ``CalendarSource/Kind/subscribed``,
  /// empty until its first refresh (``applyFeed(_:to:entityTag:lastModified:)``).
  ///
  /// `webcal://` is taken as `https://`. An address with a user name or password is refused: a
  /// calendar's state is in the log, and a password never is. A feed already subscribed to is
  /// refused (``CalendarError/alreadySubscribed(_:)``): one feed, one calendar. The person's only: an app's session
  /// is refused, and the refusal recorded.
  ///
  /// - Parameters:
  ///   - url: the feed's address, `https://`, `http://` or `webcal://`.
  ///   - title: the calendar's name; `nil`: the feed's host.
  ///   - color: `#RRGGBB`; `nil`: the default.
  public func subscribe(to url: String, title: String? = nil, color: String? = nil) throws(StoreError)
    -> EventCalendar
  {
    try subscribe(url, title: title, color: color, first: nil).calendar
  }

  /// Subscribes as ``subscribe(to:title:color:)`` does, and applies `feed` — the bytes the address
  /// answered, with that answer's `ETag` and `Last-Modified` — to the new calendar in the same
  /// transaction, as ``applyFeed(_:to:entityTag:lastModified:)`` would. A feed it would refuse
  /// (``CalendarError/feedRefused(_:reason:)``, naming the calendar that was not made) writes
  /// nothing at all: no calendar is left behind.
  public func subscribe(
    to url: String, title: String? = nil, color: String? = nil, feed: [UInt8], entityTag: String? = nil,
    lastModified: String? = nil
  ) throws(StoreError) -> (calendar: EventCalendar, refresh: FeedRefresh) {
    let made = try subscribe(
      url, title: title, color: color, first: (feed: feed, entityTag: entityTag, lastModified: lastModified))
    guard let refresh = made.refresh else { throw StoreError.calendar(.notSubscribed(made.calendar.id)) }
    return (made.calendar, refresh)
  }

  private func subscribe(
    _ url: String, title: String?, color: String?,
    first: (feed: [UInt8], entityTag: String?, lastModified: String?)?
  ) throws(StoreError) -> (calendar: EventCalendar, refresh: FeedRefresh?) {
    try requireOwner("subscribe to calendars")
    let (address, host) = try CalendarSubscription.address(of: url)
    var calendar = EventCalendar(
      title: title ?? host, source: CalendarSource(id: .random(), title: "Subscribed", kind: .subscribed),
      allowedEntityTypes: .events, allowsContentModifications: false)
    if let color { calendar.color = color }
    calendar.subscription = CalendarSubscription(url: address)
    try Self.checkText(calendar.title, field: "the title")
    let prepared = try first.map { first throws(StoreError) in try Self.prepareFeed(first.feed, for: calendar.id) }
    let actor = self.actor
    return try write(nil) { txn, appender, objects in
      let same = try txn.reading { txn in
        try Self.allCalendars(objects, in: txn).first { $0.subscription?.url == address }
      }
      if let same { throw StoreError.calendar(.alreadySubscribed(same.id)) }
      let made = try Self.appendSaved(calendar, change: .created, actor, &txn, &appender)
      guard let prepared else { return (made, nil) }
      let refresh = try Self.apply(
        prepared, to: made, entityTag: first?.entityTag, lastModified: first?.lastModified, stored: [:], &txn,
        &appender)
      return (made, refresh)
    }
  }

  /// The person's subscribed calendars, with their feeds, by title.
  public func subscriptions() throws(StoreError) -> [EventCalendar] {
    try requireOwner("list subscriptions")
    return try calendars(for: .events).filter { $0.source.kind == .subscribed }
  }

  /// Makes the subscribed calendar `calendarID` mirror `feed`, the bytes its address answered
  /// (with that answer's `ETag` and `Last-Modified`), in one transaction: an event of the feed not
  /// in the calendar is created, one that differs replaces the stored one, and one no longer in
  /// the feed is removed; matched by `UID` (and `RECURRENCE-ID` for an override without its
  /// series). Every record is made by the subscription's source (``Principal/source(_:)``), so
  /// history and the audit say where it came from; apps hear of it as of any change.
  ///
  /// A feed whose bytes equal those of the refresh that last changed the calendar writes nothing.
  /// A feed that is not iCalendar (an HTML page), is empty while the calendar holds events, is
  /// larger than ``CalendarSubscription/maximumFeedBytes`` or holds an event the store refuses is
  /// not applied: ``CalendarError/feedRefused(_:reason:)``, the calendar as it was. The person's
  /// only.
  @discardableResult
  public func applyFeed(
    _ feed: [UInt8], to calendarID: ObjectID, entityTag: String? = nil, lastModified: String? = nil
  ) throws(StoreError) -> FeedRefresh {
    try requireOwner("refresh subscriptions")
    let prepared = try Self.prepareFeed(feed, for: calendarID)
    return try write(nil) { txn, appender, objects in
      let calendar = try liveCalendar(calendarID, objects: objects, in: txn)
      // (`apply` refuses a calendar without a subscription.)
      guard calendar.source.kind == .subscribed else { throw StoreError.calendar(.notSubscribed(calendarID)) }
      var stored: [FeedKey: Event] = [:]
      for id in try txn.reading({ try objects.items(.event, inCalendar: calendarID, in: $0) }) {
        guard let state = try objects.state(.event, id, in: txn), state.isLive else { continue }
        let event = try Self.decodeEvent(id, state)
        stored[FeedKey(event)] = event
      }
      return try Self.apply(
        prepared, to: calendar, entityTag: entityTag, lastModified: lastModified, stored: stored, &txn, &appender)
    }
  }

  /// A feed checked and parsed for the subscribed calendar `calendarID`, before any write.
  struct PreparedFeed {
    let file: ICalendar
    let incoming: [FeedKey: Event]
    let digest: [UInt8]
    let interval: Int64?
  }

  /// Checks `feed` for the calendar `calendarID` as ``applyFeed(_:to:entityTag:lastModified:)``
  /// says, and parses it: its size, that it is iCalendar, that the store takes each event.
  static func prepareFeed(_ feed: [UInt8], for calendarID: ObjectID) throws(StoreError) -> PreparedFeed {
    let refused = { (reason: String) in StoreError.calendar(.feedRefused(calendarID, reason: reason)) }
    guard feed.count <= CalendarSubscription.maximumFeedBytes else {
      throw refused("it has \(feed.count) bytes, more than \(CalendarSubscription.maximumFeedBytes)")
    }
    if feed.first(where: { ![0x20, 0x09, 0x0A, 0x0D, 0xEF, 0xBB, 0xBF].contains($0) }) == UInt8(ascii: "<") {
      throw refused("it is an HTML or XML page, not iCalendar")
    }
    let file: ICalendar
    do {
      file = try ICalendar(parsing: feed)
    } catch {
      throw refused("it is not iCalendar (\(error))")
    }
    var incoming: [FeedKey: Event] = [:]
    for event in file.events {
      var checked = event
      checked.calendarID = calendarID
      do {
        incoming[FeedKey(event)] = try EventValidator.validated(checked, allowsOverlap: true)
      } catch {
        throw refused("its event \(event.externalID) is refused: \(error)")
      }
    }
    return PreparedFeed(
      file: file, incoming: incoming, digest: feed.withUnsafeBytes { Array(SHA256.hash(data: $0)) },
      interval: refreshInterval(of: feed))
  }

  /// Makes `calendar`, a live subscribed calendar holding `stored`, mirror `prepared`, within a
  /// write: each record made by the subscription's source.
  static func apply(
    _ prepared: PreparedFeed, to calendar: EventCalendar, entityTag: String?, lastModified: String?,
    stored: [FeedKey: Event], _ txn: inout WriteTransaction, _ appender: inout LogAppender
  ) throws -> FeedRefresh {
    let calendarID = calendar.id
    guard var subscription = calendar.subscription else { throw StoreError.calendar(.notSubscribed(calendarID)) }
    var stored = stored
    var result = FeedRefresh(calendarID: calendarID)
    let file = prepared.file
    result.skipped = file.skipped.merging(file.reminders.isEmpty ? [:] : ["VTODO": file.reminders.count]) { $0 + $1 }
    guard subscription.digest != prepared.digest else { return result }
    let source = Principal.source(calendar.source.id.description)
    if prepared.incoming.isEmpty && !stored.isEmpty {
      throw StoreError.calendar(
        .feedRefused(calendarID, reason: "it holds no events, and the calendar holds \(stored.count)"))
    }
    for (key, var event) in prepared.incoming.sorted(by: { $0.key < $1.key }) {
      if let existing = stored.removeValue(forKey: key) {
        guard !sameContent(existing, event) else {
          result.unchanged += 1
          continue
        }
        event.id = existing.id
        event.resourceName = existing.resourceName
        event.creationDate = event.creationDate ?? existing.creationDate
        result.lastPosition =
          try appendSaved(event, change: .modified, occurrence: nil, source, &txn, &appender).version
        result.updated += 1
      } else {
        event.creationDate = event.creationDate ?? appender.timestamp
        result.lastPosition =
          try appendSaved(event, change: .created, occurrence: nil, source, &txn, &appender).version
        result.created += 1
      }
    }
    for (_, gone) in stored.sorted(by: { $0.key < $1.key }) {
      try appendRemoved(gone.id, isEvent: true, calendar: calendarID, source, &txn, &appender)
      result.removed += 1
    }
    subscription.entityTag = entityTag
    subscription.lastModified = lastModified
    subscription.digest = prepared.digest
    subscription.refreshInterval = prepared.interval
    var saved = calendar
    saved.subscription = subscription
    result.lastPosition = try appendSaved(saved, change: .modified, source, &txn, &appender).version
    return result
  }

  /// The feed's own refresh interval, in seconds: its `REFRESH-INTERVAL` (RFC 7986), else its
  /// `X-PUBLISHED-TTL`, read from the calendar's properties before the first component.
  static func refreshInterval(of feed: [UInt8]) -> Int64? {
    var found: Int64?
    for line in feed.split(separator: UInt8(ascii: "\n")).prefix(200) {
      var text = Substring(String(decoding: line, as: UTF8.self))
      while let last = text.last, last == "\r" || last == " " { text = text.dropLast() }
      if text.uppercased().hasPrefix("BEGIN:") && !text.uppercased().hasPrefix("BEGIN:VCALENDAR") { break }
      let upper = text.uppercased()
      guard upper.hasPrefix("REFRESH-INTERVAL") || upper.hasPrefix("X-PUBLISHED-TTL"),
        let colon = text.firstIndex(of: ":"),
        let duration = ICalendarText.duration(String(text[text.index(after: colon)...]))
      else { continue }
      let seconds = duration.days.multipliedReportingOverflow(by: 86_400).partialValue + duration.seconds
      if upper.hasPrefix("REFRESH-INTERVAL") || found == nil { found = seconds }
    }
    return found.flatMap { $0 > 0 ? $0 : nil }
  }

  /// Whether a stored event and one read from a feed say the same: everything but what the store
  /// keeps of its own (identifiers, versions, resource names, creation and modification times).
  static func sameContent(_ stored: Event, _ fed: Event) -> Bool {
    func plain(_ event: Event) -> Event {
      var event = event
      event.id = FeedKey.anyID
      event.calendarID = nil
      event.resourceName = nil
      event.creationDate = nil
      event.lastModifiedDate = nil
      event.remoteEntityTag = nil
      event.version = .none
      event.detachedOccurrences = event.detachedOccurrences.mapValues { occurrence in
        // A stored override carries its series' rules as it is decoded; one read from a feed, none.
        var occurrence = plain(occurrence)
        (occurrence.recurrenceRules, occurrence.exceptionDates, occurrence.recurrenceDates) = ([], [], [])
        return occurrence
      }
      return event
    }
    return plain(stored) == plain(fed)
  }
}

/// What identifies an event across refreshes of a feed: its `UID`, and for an override kept
/// without its series, its `RECURRENCE-ID` line.
struct FeedKey: Hashable, Comparable {
  let uid: String
  let recurrenceID: String

  init(_ event: Event) {
    uid = event.externalID
    recurrenceID = EventStore.orphanRecurrenceID(of: event.additionalProperties) ?? ""
  }

  static func < (a: FeedKey, b: FeedKey) -> Bool { (a.uid, a.recurrenceID) < (b.uid, b.recurrenceID) }

  /// The identifier content comparisons give every event.
  static let anyID = ObjectID("00000000-0000-4000-8000-000000000000")!
}
