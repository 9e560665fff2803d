internal import LMDB

extension EventStore {
  /// Every live calendar holding any of `types`, sorted by title.
  ///
  /// A client session sees the calendars of the services it has full access to; with write-only
  /// access to calendars it sees one virtual calendar for new events instead of the event calendars.
  public func calendars(for types: EntityTypes = [.events, .reminders]) throws(StoreError) -> [EventCalendar] {
    if types.contains(.events) { try askImplicitly(.calendars, reading: false) }
    if types.contains(.reminders) { try askImplicitly(.reminders, reading: false) }
    return try read { txn, objects, uses in
      let calendars = try visibleCalendars(for: types, objects, in: txn, noting: uses)
      uses.touch(calendars.filter { $0.allowedEntityTypes.contains(.events) }.map(\.id), for: .calendars)
      uses.touch(calendars.filter { $0.allowedEntityTypes.contains(.reminders) }.map(\.id), for: .reminders)
      return calendars
    }
  }

  /// ``calendars(for:)`` in the snapshot `txn`, access checked in it (and the listing noted in
  /// `uses`, when given).
  func visibleCalendars(
    for types: EntityTypes, _ objects: ObjectProjection, in txn: borrowing ReadTransaction,
    noting uses: ReadUses? = nil
  ) throws -> [EventCalendar] {
    let shown = try Self.shownCalendars(seenIn: try calendarView(for: types, in: txn, noting: uses), objects, in: txn)
    return sessionClient == nil ? shown : shown.map(Self.appsCopy)
  }

  /// An app's copy of `calendar`: without the feed it subscribes to, whose address may be a secret.
  static func appsCopy(_ calendar: EventCalendar) -> EventCalendar {
    var copy = calendar
    copy.subscription = nil
    copy.remote = nil
    return copy
  }

  /// The calendars `view` shows, in the snapshot `txn`: with write-only access the virtual
  /// calendar for new events first.
  private static func shownCalendars(
    seenIn view: CalendarView, _ objects: ObjectProjection, in txn: borrowing ReadTransaction
  ) throws -> [EventCalendar] {
    guard !view.types.isEmpty || view.writeOnly else { return [] }
    let all = try allCalendars(objects, in: txn)
    let virtual =
      view.writeOnly ? defaultCalendarForNewEvents(among: all).map { [virtualCalendar(for: $0)] } ?? [] : []
    return virtual + all.filter { view.shows($0) }
  }

  /// What this session sees of the calendars of `types`, access checked in the snapshot `txn`:
  /// the types it may read, whether it holds write-only access to events (and so sees the virtual
  /// calendar for new events instead of the event calendars), and the calendars it was given.
  private func calendarView(
    for types: EntityTypes, in txn: borrowing ReadTransaction, noting uses: ReadUses?
  ) throws -> CalendarView {
    var types = types
    var writeOnly = false
    if types.contains(.events), try !sees(.calendars, "list calendars", in: txn, noting: uses) {
      types.remove(.events)
      writeOnly = true
    }
    if types.contains(.reminders), try !sees(.reminders, "list reminder lists", in: txn, noting: uses) {
      types.remove(.reminders)
    }
    let scope = types.contains(.events) ? try calendarScope(in: txn) : nil
    return CalendarView(types: types, writeOnly: writeOnly, scope: scope)
  }

  private struct CalendarView {
    var types: EntityTypes
    var writeOnly: Bool
    var scope: Set<ObjectID>?

    /// Whether a stored calendar is seen: it holds a type seen, and when access is to chosen
    /// calendars, an event calendar outside them is seen only as a reminder list, when it is one
    /// and reminders are seen.
    func shows(_ calendar: EventCalendar) -> Bool {
      let seen = calendar.allowedEntityTypes.intersection(types)
      guard !seen.isEmpty else { return false }
      guard let scope, !scope.contains(calendar.id) else { return true }
      return seen.contains(.reminders)
    }
  }

  /// Every live calendar in the snapshot `txn`, by title then identifier, unfiltered.
  static func allCalendars(_ objects: ObjectProjection, in txn: borrowing ReadTransaction) throws -> [EventCalendar] {
    try objects.live(.calendar, in: txn).map { stored in
      try ModelCodec.decodeCalendar(id: stored.calendarID, version: stored.version, stored.state)
    }.sorted { ($0.title, $0.id) < ($1.title, $1.id) }
  }

  /// The live calendar `id`, or `nil` (also when this session may not see it).
  public func calendar(withID id: ObjectID) throws(StoreError) -> EventCalendar? {
    try calendar(withID: id, recordingUse: true)
  }

  /// ``calendar(withID:)``, counted as the app's read only with `recordingUse` (not when the
  /// store looks on the app's behalf, as its push delivery does).
  package func calendar(withID id: ObjectID, recordingUse: Bool) throws(StoreError) -> EventCalendar? {
    try read(records: recordingUse) { txn, objects, uses in
      guard let stored = try objects.state(.calendar, id, in: txn), stored.isLive else { return nil }
      let calendar = try ModelCodec.decodeCalendar(id: id, version: stored.version, stored.state)
      guard sessionClient != nil else { return calendar }
      // Seen through any one of its entity types the session may see: an event calendar that also
      // holds reminders is an app's to read with calendar access alone. Refused only when every
      // type is refused, with the first refusal.
      var refusal: SnapshotRefusal?
      for type in [EntityTypes.events, .reminders] where calendar.allowedEntityTypes.contains(type) {
        do {
          // Judged on this calendar alone (not by listing every calendar), but where write-only
          // access shows the virtual calendar in its place.
          let view = try calendarView(for: type, in: txn, noting: uses)
          if !view.writeOnly {
            if view.shows(calendar) {
              uses.touch(id)
              return Self.appsCopy(calendar)
            }
          } else if let visible = try Self.shownCalendars(seenIn: view, objects, in: txn).first(where: { $0.id == id })
          {
            return Self.appsCopy(visible)
          }
        } catch let refused as SnapshotRefusal {
          refusal = refusal ?? refused
        }
      }
      if let refusal { throw refusal }
      return nil
    }
  }

  /// Where a write-only session's new events go: the first writable event calendar by title, of
  /// `calendars` sorted as ``allCalendars(_:in:)`` sorts them.
  static func defaultCalendarForNewEvents(among calendars: [EventCalendar]) -> EventCalendar? {
    calendars.first { $0.allowedEntityTypes.contains(.events) && $0.allowsContentModifications }
  }

  /// What a write-only session sees of `calendar`: one calendar for new events, nothing more.
  static func virtualCalendar(for calendar: EventCalendar) -> EventCalendar {
    var virtual = EventCalendar(title: "Calendar", allowedEntityTypes: .events)
    virtual.id = calendar.id
    virtual.version = calendar.version
    virtual.source = calendar.source
    return virtual
  }

  /// Checks WebDAV dead properties (``EventCalendar/clientProperties``, an item's or a card's):
  /// how many, and each name and value.
  static func checkClientProperties(_ properties: [String: String]) throws(StoreError) {
    guard properties.count <= EventCalendar.maximumClientProperties else {
      throw .calendar(
        .invalidText(
          field: "the client properties",
          reason: "are \(properties.count), more than \(EventCalendar.maximumClientProperties)"))
    }
    for (name, value) in properties {
      guard name.hasPrefix("{"), name.utf8.count <= 1024, name.contains("}") else {
        throw .calendar(.invalidText(field: "a client property's name", reason: "is not {namespace}name"))
      }
      try checkText(name, field: "a client property's name")
      guard value.utf8.count <= 64 * 1024 else {
        throw .calendar(.invalidText(field: "the client property \(name)", reason: "is longer than 64 KiB"))
      }
      try checkText(value, field: "the client property \(name)")
    }
    let bytes = EventCalendar.clientPropertyBytes(properties)
    guard bytes <= EventCalendar.maximumClientPropertyBytes else {
      throw .calendar(
        .invalidText(
          field: "the client properties",
          reason: "hold \(bytes) bytes, more than \(EventCalendar.maximumClientPropertyBytes)"))
    }
  }

  /// Checks the properties alarms keep of their `VALARM` (``Alarm/additionalProperties``): how
  /// many, and each line.
  static func checkAlarms(_ alarms: [Alarm]) throws(StoreError) {
    for alarm in alarms {
      guard alarm.additionalProperties.count <= Alarm.maximumProperties else {
        throw .calendar(
          .invalidText(
            field: "an alarm's properties",
            reason: "are \(alarm.additionalProperties.count), more than \(Alarm.maximumProperties)"))
      }
      for property in alarm.additionalProperties { try checkText(property, field: "an alarm's property") }
    }
  }

  /// Creates or changes a calendar and returns it as saved (with its new version).
  @discardableResult
  public func save(_ calendar: EventCalendar, overwrite: Bool = false) throws(StoreError) -> EventCalendar {
    try Self.checkText(calendar.title, field: "the title")
    try Self.checkClientProperties(calendar.clientProperties)
    guard !calendar.allowedEntityTypes.isEmpty else {
      throw .calendar(.invalidText(field: "allowed entity types", reason: "is empty"))
    }
    let actor = self.actor
    return try write(nil) { txn, appender, objects in
      // A calendar that holds events and reminders needs access to both services.
      for service in Self.services(holding: calendar.allowedEntityTypes) {
        try checkAccess(.change(service, "save a calendar"), in: txn)
      }
      var change = ItemChange.created
      var calendar = calendar
      // The name a client made the calendar under is bound to that client when the calendar is
      // first saved, and no later save renames it or changes whose it is (stored state, never the
      // caller's copy).
      calendar.resourceOwner = nil
      if case .client(let client) = actor, calendar.resourceName != nil { calendar.resourceOwner = client }
      // Only `subscribe(to:title:color:)` makes a subscribed calendar, and no save changes which
      // feed it mirrors or makes it writable (stored state, never the caller's copy).
      calendar.subscription = nil
      calendar.remote = nil
      if let stored = try objects.state(.calendar, calendar.id, in: txn) {
        if calendar.allowedEntityTypes.contains(.events) {
          try checkCalendarScope(calendar.id, "change a calendar it was not given", in: txn)
        }
        try Self.checkVersion(calendar.id, fetched: calendar.version, stored: stored, overwrite: overwrite)
        let current = try ModelCodec.decodeCalendar(id: calendar.id, version: stored.version, stored.state)
        if current.allowedEntityTypes != calendar.allowedEntityTypes {
          throw StoreError.calendar(.entityTypesCannotChange(calendar.id))
        }
        (calendar.resourceName, calendar.resourceOwner) = (current.resourceName, current.resourceOwner)
        if current.source.kind == .birthdays {
          // The birthdays calendar: its title and colour are the person's; an app changes nothing
          // of it (EventKit's is immutable), and its attempt is recorded.
          guard actor == .person else { throw StoreError.calendar(.calendarReadOnly(calendar.id)) }
          (calendar.source, calendar.allowsContentModifications) = (current.source, false)
        } else if calendar.source.kind == .birthdays {
          throw StoreError.calendar(.birthdaysCalendarIsAdded)
        } else if current.source.kind == .subscribed || current.remote != nil {
          // A subscription's or an account's calendar keeps its source, what it mirrors and
          // whether it may be changed: its colour and title are the person's to change.
          (calendar.source, calendar.allowsContentModifications) = (current.source, current.allowsContentModifications)
          (calendar.subscription, calendar.remote) = (current.subscription, current.remote)
        } else if calendar.source.kind == .subscribed {
          throw StoreError.calendar(.subscribedCalendarsAreMadeBySubscribing)
        } else if calendar.source.kind == .calDAV {
          throw StoreError.calendar(.accountCalendarsAreMadeBySyncing)
        }
        change = .modified
      } else if calendar.source.kind == .subscribed {
        throw StoreError.calendar(.subscribedCalendarsAreMadeBySubscribing)
      } else if calendar.source.kind == .birthdays || calendar.id == BirthdaysCalendar.id {
        throw StoreError.calendar(.birthdaysCalendarIsAdded)
      } else if calendar.source.kind == .calDAV {
        // A calendar made in an account: its collection is made on the server by the next sync
        // (`MKCALENDAR`), at an address in the account's calendar home named by the calendar's id.
        // The account, its home and the address are the store's, never the caller's.
        guard let stored = try objects.state(.source, calendar.source.id, in: txn), stored.isLive else {
          throw StoreError.calendar(.accountNotFound(calendar.source.id))
        }
        let account = try CalendarAccount(id: calendar.source.id, version: stored.version, stored.state)
        guard let home = account.calendarHome else { throw StoreError.calendar(.accountCalendarsAreMadeBySyncing) }
        calendar.source = account.source
        calendar.allowsContentModifications = true
        calendar.remote = RemoteCollection(
          url: (home.hasSuffix("/") ? home : home + "/") + calendar.id.description.lowercased() + "/", isNew: true)
      }
      return try Self.appendSaved(calendar, change: change, actor, &txn, &appender)
    }
  }

  /// The services whose data a calendar allowing `types` holds.
  static func services(holding types: EntityTypes) -> [Service] {
    (types.contains(.events) ? [Service.calendars] : []) + (types.contains(.reminders) ? [.reminders] : [])
  }

  /// Appends a `calendarSaved` record with the full state of `calendar` and returns it as saved.
  static func appendSaved(
    _ calendar: EventCalendar, change: ItemChange, _ actor: Principal, _ txn: inout WriteTransaction,
    _ appender: inout LogAppender
  ) throws -> EventCalendar {
    var payload = Payload()
    payload.append(tag: 1, id: calendar.id)
    payload.append(tag: 3, unsigned: change.rawValue)
    payload.append(tag: 5, message: ModelCodec.encode(calendar))
    let header = try appender.append(RecordDraft(kind: .calendarSaved, principal: actor, payload: payload), in: &txn)
    var saved = calendar
    saved.version = header.position
    return saved
  }

  /// Removes a calendar and every event and reminder in it (one record).
  public func remove(_ calendar: EventCalendar, overwrite: Bool = false) throws(StoreError) {
    let actor = self.actor
    try write(nil) { txn, appender, objects in
      guard let stored = try objects.state(.calendar, calendar.id, in: txn) else {
        throw StoreError.calendar(.calendarNotFound(calendar.id))
      }
      // What the calendar holds is read from the store, never from the caller's copy: removing it
      // removes every item of those kinds, and needs access to each of their services.
      if stored.isLive {
        let current = try ModelCodec.decodeCalendar(id: calendar.id, version: stored.version, stored.state)
        for service in Self.services(holding: current.allowedEntityTypes) {
          try checkAccess(.change(service, "remove a calendar"), in: txn)
        }
        if current.allowedEntityTypes.contains(.events) {
          try checkCalendarScope(calendar.id, "remove a calendar it was not given", in: txn)
        }
        // The birthdays calendar is the person's to remove (EventKit's is immutable to apps).
        if current.source.kind == .birthdays, actor != .person {
          throw StoreError.calendar(.calendarReadOnly(calendar.id))
        }
      }
      try Self.checkVersion(calendar.id, fetched: calendar.version, stored: stored, overwrite: overwrite)
      var payload = Payload()
      payload.append(tag: 1, id: calendar.id)
      try appender.append(RecordDraft(kind: .calendarRemoved, principal: actor, payload: payload), in: &txn)
    }
  }
}
