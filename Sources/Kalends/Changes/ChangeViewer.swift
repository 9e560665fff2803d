internal import LMDB

/// Who listens to a change subscription, and so what it may hear: the owner hears everything; a
/// client session hears about calendars and events only with full access to calendars, about
/// reminders only with full access to reminders (write-only access hears nothing about existing
/// events), about contacts and groups only with full access to contacts (with limited access: about
/// the contacts it may use, and no groups), and about no client but itself.
struct ChangeViewer: Sendable {
  /// What the viewer may hear about, as of one snapshot.
  struct Visibility {
    var calendars: Bool
    var events: Bool
    var reminders: Bool
    var contacts: Bool
    /// With limited access to contacts: the contacts it may hear about (no groups); `nil`: all.
    var contactScope: Set<ObjectID>? = nil
    /// With full access to chosen calendars: those calendars, whose events it may hear about;
    /// `nil`: all.
    var calendarScope: Set<ObjectID>? = nil
    /// `nil`: every client.
    var onlyClient: String?
    /// For a client: its standing for each service, as of the snapshot (what its notices are
    /// recorded as read with).
    var states: [Service: PermissionState] = [:]
    /// What the calendars the notice's records name hold (events, reminders), read in the same
    /// snapshot; a calendar missing here (its content erased) is heard only by a viewer that may
    /// hear of both kinds.
    var calendarTypes: [ObjectID: EntityTypes] = [:]

    /// Whether the birthdays calendar is there and it may hear of its events (then a contact's
    /// change it may hear of tells of that contact's birthday and anniversary too); set by
    /// ``noting(calendarsOf:store:in:)``.
    var birthdays = false

    /// Whether it sees any calendar data at all (a "refetch everything" means something to it).
    var seesItems: Bool { calendars || events || reminders || contacts }

    /// Whether it may hear of `object`, which a record naming `calendar` (an event's, or a
    /// calendar's own) changed.
    func allows(_ object: ChangedObject, calendar: ObjectID? = nil) -> Bool {
      switch object {
      // A calendar is heard of by a session that may see what it holds: a reminders list with
      // reminders access, an events calendar with events access (and among the chosen calendars).
      case .calendar(let id):
        let types = calendarTypes[id] ?? [.events, .reminders]
        let heardAsList = types.contains(.reminders) && reminders
        let heardAsEvents = types.contains(.events) && events && (calendarScope?.contains(id) ?? true)
        return calendarTypes[id] == nil ? heardAsList && heardAsEvents : heardAsList || heardAsEvents
      case .event: return events && (calendarScope.map { scope in calendar.map(scope.contains) ?? false } ?? true)
      case .reminder: return reminders
      case .contact(let id): return contacts && (contactScope?.contains(id) ?? true)
      case .group: return contacts && contactScope == nil
      case .client(let id): return onlyClient.map { $0 == id } ?? true
      }
    }

    /// How it hears of `object` changed as `kind` by a record naming `calendar`, for an event
    /// moved, from `movedFrom`; `nil` when it may not hear of it. An event moved out of the
    /// calendars it was given is gone from what it sees (`removed`); one moved into them is new to
    /// it (`added`).
    func heard(
      _ object: ChangedObject, _ kind: ChangeKind, calendar: ObjectID?, movedFrom: ObjectID?
    ) -> ChangeKind? {
      if case .event = object, events, let scope = calendarScope, let movedFrom {
        switch (calendar.map(scope.contains) ?? false, scope.contains(movedFrom)) {
        case (true, true): return kind
        case (true, false): return .added
        case (false, true): return .removed
        case (false, false): return nil
        }
      }
      return allows(object, calendar: calendar) ? kind : nil
    }
  }

  /// The client of a session; `nil` for the owner.
  let client: String?
  /// For a session: the last decision made outside the app when it opened.
  let sessionStart: LogPosition
  /// For a session of a TCP caller: the token it presented, whose revocation ends the session.
  var token: String? = nil
  /// For a session the store server opened: how it identified the app, for the record of what
  /// its notices told it.
  var evidence: CallerEvidence? = nil

  static let owner = ChangeViewer(client: nil, sessionStart: LogPosition(UInt64.max))

  /// What it may hear about in `txn`; throws ``AccessError/sessionTerminated(client:at:)`` once
  /// the session's access was changed from outside, ``AccessError/tokenRevoked(client:token:)``
  /// once its caller's token was revoked.
  func visibility(_ store: Store, in txn: borrowing ReadTransaction) throws -> Visibility {
    guard let client else {
      return Visibility(calendars: true, events: true, reminders: true, contacts: true, onlyClient: nil)
    }

    let permissions = try store.projection(PermissionProjection.self)
    try permissions.checkSession(client, start: sessionStart, token: token, in: txn)
    var states: [Service: PermissionState] = [:]
    for service in Service.allCases { states[service] = try permissions.state(client, service, in: txn) }
    let events = states[.calendars]?.status == .fullAccess
    let reminders = states[.reminders]?.status == .fullAccess
    let contactStatus = states[.contacts]?.status
    var visibility = Visibility(
      calendars: events || reminders, events: events, reminders: reminders,
      contacts: contactStatus == .fullAccess || contactStatus == .limited, onlyClient: client, states: states)
    visibility.calendarScope = try permissions.calendarScope(client, in: txn)
    visibility.contactScope = try permissions.contactScope(
      client, book: try store.projection(ContactsProjection.self), in: txn)
    return visibility
  }

}

extension ChangeViewer.Visibility {
  /// `self`, knowing what the calendars `records` name hold, when it matters: for a viewer that
  /// may hear of events or of reminders but not both. Read in `txn`, the records' snapshot.
  func noting(
    calendarsOf records: ArraySlice<DecodedRecord>, store: Store, in txn: borrowing ReadTransaction
  ) throws -> Self {
    var noted = self
    let objects = try store.projection(ObjectProjection.self)
    if events, contacts, calendarScope?.contains(BirthdaysCalendar.id) ?? true,
      records.contains(where: { if case .contact = $0.object { true } else { false } })
    {
      noted.birthdays = try EventStore.hasBirthdaysCalendar(objects, in: txn)
    }
    guard calendars, events != reminders || calendarScope != nil else { return noted }
    for record in records {
      guard case .calendar(let id) = record.object, noted.calendarTypes[id] == nil,
        let stored = try objects.state(.calendar, id, in: txn),
        let calendar = try? ModelCodec.decodeCalendar(id: id, version: stored.version, stored.state)
      else { continue }
      noted.calendarTypes[id] = calendar.allowedEntityTypes
    }
    return noted
  }
}
