internal import LMDB

extension EventStore {
  /// Adds the birthdays calendar (``BirthdaysCalendar``): a read-only event calendar of source kind
  /// ``CalendarSource/Kind/birthdays`` whose events are the contacts' birthdays and anniversaries.
  /// One record; when the calendar is there already, returns it as it is and writes nothing.
  ///
  /// The person's only: an app's session is refused, and the refusal recorded. The person removes
  /// it as any calendar (`remove(_:overwrite:)`); an app can neither change nor remove it
  /// (``CalendarError/calendarReadOnly(_:)``, recorded), nor write into it.
  ///
  /// - Parameters:
  ///   - title: its name.
  ///   - color: `#RRGGBB`; `nil`: the default.
  @discardableResult
  public func addBirthdaysCalendar(title: String = "Birthdays", color: String? = nil) throws(StoreError)
    -> EventCalendar
  {
    try requireOwner("add the birthdays calendar")
    try Self.checkText(title, field: "the title")
    var calendar = EventCalendar(
      id: BirthdaysCalendar.id, title: title, source: BirthdaysCalendar.source)
    calendar.allowsContentModifications = false
    if let color { calendar.color = color }
    let actor = self.actor
    return try write(nil) { txn, appender, objects in
      if let stored = try objects.state(.calendar, BirthdaysCalendar.id, in: txn), stored.isLive {
        return try ModelCodec.decodeCalendar(id: BirthdaysCalendar.id, version: stored.version, stored.state)
      }
      return try Self.appendSaved(calendar, change: .created, actor, &txn, &appender)
    }
  }

  /// Which contacts' birthdays this session sees in the snapshot `txn`: every one for the person
  /// and an app with full access to contacts; its chosen ones (and those it made) with limited
  /// access; none without access — then nothing is asked or recorded: the app asked for events.
  func birthdayScope(_ book: ContactsProjection, in txn: borrowing ReadTransaction) throws -> BirthdayScope {
    guard let client = sessionClient, let state = try sessionState(.contacts, in: txn) else { return .all(nil) }
    switch state.status {
    case .fullAccess: return .all(state)
    case .limited: return .some(try permissions().contactScope(client, book: book, in: txn) ?? [], state)
    default: return .none
    }
  }

  /// What a read of `calendars` in the snapshot `txn` reads of the birthdays calendar: the contacts
  /// book and the contacts this session sees there; `nil` when it reads none of it (the calendar
  /// not among `calendars`, not there, or no access to contacts). Made once per read: a read of
  /// many slices asks the permissions once.
  func birthdays(
    in calendars: [ObjectID], _ objects: ObjectProjection, _ txn: borrowing ReadTransaction
  ) throws -> BirthdayReader? {
    guard calendars.contains(BirthdaysCalendar.id), try Self.hasBirthdaysCalendar(objects, in: txn) else { return nil }
    let book = try contactsBook()
    let scope = try birthdayScope(book, in: txn)
    if case .none = scope { return nil }
    return BirthdayReader(book: book, scope: scope)
  }

  /// Whether the birthdays calendar is there in the snapshot `txn`.
  static func hasBirthdaysCalendar(_ objects: ObjectProjection, in txn: borrowing ReadTransaction) throws -> Bool {
    try objects.state(.calendar, BirthdaysCalendar.id, in: txn)?.isLive ?? false
  }

  /// `a` and `b`, each sorted as ``EventInstance/precedes(_:_:)`` sorts, as one such list.
  static func merged(_ a: [EventInstance], _ b: [EventInstance]) -> [EventInstance] {
    guard !b.isEmpty else { return a }
    guard !a.isEmpty else { return b }
    return InstanceRuns.merge(a[...], b[...])
  }

  /// The contact whose birthday or anniversary the event `id` is, among those `scope` admits.
  static func birthdayContact(_ id: ObjectID, _ scope: BirthdayScope) -> ObjectID? {
    BirthdaysCalendar.candidates(of: id).first { scope.contains($0.contact) }?.contact
  }

  /// The series of the birthdays calendar `id`, when the calendar is there, this session sees it
  /// and the contact, and the contact holds that date.
  func birthdaySeries(
    _ id: ObjectID, _ objects: ObjectProjection, in txn: borrowing ReadTransaction, noting uses: ReadUses?
  ) throws -> Event? {
    guard try Self.hasBirthdaysCalendar(objects, in: txn) else { return nil }
    if let scope = try calendarScope(in: txn), !scope.contains(BirthdaysCalendar.id) { return nil }
    let book = try contactsBook()
    let scope = try birthdayScope(book, in: txn)
    for (contactID, kind) in BirthdaysCalendar.candidates(of: id) where scope.contains(contactID) {
      guard let contact = try ContactStore.liveContact(contactID, book, in: txn), let date = kind.date(of: contact)
      else { continue }
      if let uses, let state = scope.state {
        uses.note(.contacts, "read birthdays", state)
        if case .some = scope { uses.touch([contactID], for: .contacts) }
      }
      return try BirthdaysCalendar.series(of: contact, kind, date)
    }
    return nil
  }
}
