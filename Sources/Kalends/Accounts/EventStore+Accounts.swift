internal import LMDB

extension EventStore {
  /// Adds `account` (found by its discovery: principal and homes) as a source of its own; its
  /// calendars come with its first sync. The same principal with the same user twice is refused
  /// (``CalendarError/accountExists(_:)``): one account, one source. The person's only: an app's
  /// session is refused, and the refusal recorded.
  public func addAccount(_ account: CalendarAccount) throws(StoreError) -> CalendarAccount {
    try requireOwner("add accounts")
    try Self.checkText(account.title, field: "the account's name")
    guard !account.title.isEmpty else { throw .calendar(.invalidText(field: "the account's name", reason: "is empty")) }
    for (text, field) in [
      (account.principal, "the principal"), (account.user, "the user name"),
      (account.calendarHome ?? "", "the calendar home"), (account.addressBookHome ?? "", "the address-book home"),
    ] {
      try Self.checkText(text, field: field)
    }
    return try write(nil) { txn, appender, objects in
      let same = try txn.reading { txn in
        try Self.allAccounts(objects, in: txn).first { $0.principal == account.principal && $0.user == account.user }
      }
      if let same { throw StoreError.calendar(.accountExists(same.id)) }
      return try Self.appendSaved(account, change: .created, &txn, &appender)
    }
  }

  /// The person's accounts, by title then identifier.
  public func accounts() throws(StoreError) -> [CalendarAccount] {
    try requireOwner("list accounts")
    return try read { txn, objects, _ in try Self.allAccounts(objects, in: txn) }
  }

  /// The account `id`, or `nil` when there is none (or it was removed).
  public func account(withID id: ObjectID) throws(StoreError) -> CalendarAccount? {
    try requireOwner("read accounts")
    return try read { txn, objects, _ in
      guard let stored = try objects.state(.source, id, in: txn), stored.isLive else { return nil }
      return try CalendarAccount(id: id, version: stored.version, stored.state)
    }
  }

  /// The calendars of the account `id` (mirrors of its server's collections), by title, each with
  /// its ``EventCalendar/remote``.
  public func calendars(ofAccount id: ObjectID) throws(StoreError) -> [EventCalendar] {
    try requireOwner("read accounts")
    return try read { txn, objects, _ in try Self.allCalendars(objects, in: txn).filter { $0.source.id == id } }
  }

  /// Renames the account `id` to `title`: a `sourceSaved` record, the person's; its calendars take
  /// the new name of their source in the same transaction.
  @discardableResult
  public func renameAccount(_ id: ObjectID, to title: String) throws(StoreError) -> CalendarAccount {
    try requireOwner("rename accounts")
    try Self.checkText(title, field: "the account's name")
    guard !title.isEmpty else { throw .calendar(.invalidText(field: "the account's name", reason: "is empty")) }
    return try write(nil) { txn, appender, objects in
      guard let stored = try objects.state(.source, id, in: txn), stored.isLive else {
        throw StoreError.calendar(.accountNotFound(id))
      }
      var account = try CalendarAccount(id: id, version: stored.version, stored.state)
      guard account.title != title else { return account }
      account.title = title
      let saved = try Self.appendSaved(account, change: .modified, &txn, &appender)
      let calendars = try txn.reading { try Self.allCalendars(objects, in: $0).filter { $0.source.id == id } }
      for var calendar in calendars {
        calendar.source = saved.source
        _ = try Self.appendSaved(calendar, change: .modified, .person, &txn, &appender)
      }
      return saved
    }
  }

  /// Removes the account `id`, its calendars and its address books with everything they hold, in
  /// one transaction: a `calendarRemoved` for each calendar, the removal of each address book's
  /// contacts and groups and of the book, then `sourceRemoved`. Nothing is sent to the server. The
  /// person's only.
  public func removeAccount(_ id: ObjectID) throws(StoreError) {
    try requireOwner("remove accounts")
    let book = try contactsBook()
    try write(nil) { txn, appender, objects in
      guard let stored = try objects.state(.source, id, in: txn), stored.isLive else {
        throw StoreError.calendar(.accountNotFound(id))
      }
      let calendars = try txn.reading { try Self.allCalendars(objects, in: $0).filter { $0.source.id == id } }
      for calendar in calendars {
        var payload = Payload()
        payload.append(tag: 1, id: calendar.id)
        try appender.append(RecordDraft(kind: .calendarRemoved, principal: .person, payload: payload), in: &txn)
      }
      for container in try txn.reading({ try ContactStore.accountContainers(id, book, in: $0) }) {
        try ContactStore.appendRemoved(container, .person, book, &txn, &appender)
      }
      var payload = Payload()
      payload.append(tag: 1, id: id)
      try appender.append(RecordDraft(kind: .sourceRemoved, principal: .person, payload: payload), in: &txn)
    }
  }

  /// Every live account in the snapshot `txn`, by title then identifier.
  static func allAccounts(_ objects: ObjectProjection, in txn: borrowing ReadTransaction) throws -> [CalendarAccount] {
    try objects.live(.source, in: txn).map { stored in
      try CalendarAccount(id: stored.calendarID, version: stored.version, stored.state)
    }.sorted { ($0.title, $0.id) < ($1.title, $1.id) }
  }

  /// Appends a `sourceSaved` record of `account`, made by the person.
  static func appendSaved(
    _ account: CalendarAccount, change: ItemChange, _ txn: inout WriteTransaction, _ appender: inout LogAppender
  ) throws -> CalendarAccount {
    var payload = Payload()
    payload.append(tag: 1, id: account.id)
    payload.append(tag: 3, unsigned: change.rawValue)
    payload.append(tag: 5, message: account.state)
    let header = try appender.append(RecordDraft(kind: .sourceSaved, principal: .person, payload: payload), in: &txn)
    var saved = account
    saved.version = header.position
    return saved
  }
}
