public import Kalends
import KalendsFormats

/// A sync of one account into the store: its calendar home listed, a calendar made for each new
/// collection (and removed for each collection gone), then each collection synced from where its
/// last sync ended (`sync-collection`, else ctag and ETag listings; multigets in batches, each one
/// transaction). Everything it writes is made by the account's source (`source:ID`), so
/// history and the audit say where it came from, and apps hear of it through the change feed.
///
/// Then what the person and apps changed in the account's calendars and address books goes out
/// (`CollectionSend`):
/// conditional `PUT` and `DELETE`, conflicts kept as facts, the server's version current
/// (docs/accounts.md).
public enum AccountSync {
  /// How far a sync is: the calendar being synced, its objects applied of those to apply, and the
  /// bytes its server's answers held so far.
  public struct Progress: Sendable {
    public let calendar: String
    public let objects: Int
    public let total: Int
    public let bytes: Int
  }

  /// What a sync did to one calendar.
  public struct CollectionResult: Sendable {
    public let calendarID: ObjectID
    public let title: String
    /// What was applied.
    public var applied = RemoteApply()
    /// Objects not taken, with why.
    public var quarantined: [RemoteCollection.QuarantinedObject] = []
    /// Local changes the server took.
    public var sent = 0
    /// Objects changed both here and on the server, by name: the server's version was kept, the
    /// local one is in history.
    public var conflicts: [String] = []
    /// Requests made to the server.
    public var requests = 0
    /// Bytes the server's answers held.
    public var bytes = 0

    init(calendarID: ObjectID, title: String) {
      self.calendarID = calendarID
      self.title = title
    }
  }

  /// What a sync did to one address book.
  public struct AddressBookResult: Sendable {
    /// The contacts container mirroring it.
    public let containerID: ObjectID
    public let title: String
    /// What was applied.
    public var applied = RemoteApply()
    /// Cards not taken, with why.
    public var quarantined: [RemoteCollection.QuarantinedObject] = []
    /// Local changes the server took.
    public var sent = 0
    /// Cards changed both here and on the server, by name: the server's version was kept, the
    /// local one is in history.
    public var conflicts: [String] = []
    /// Requests made to the server.
    public var requests = 0
    /// Bytes the server's answers held.
    public var bytes = 0

    init(containerID: ObjectID, title: String) {
      self.containerID = containerID
      self.title = title
    }
  }

  /// What a sync did.
  public struct Summary: Sendable {
    /// Each calendar's sync.
    public var collections: [CollectionResult] = []
    /// Each address book's sync.
    public var addressBooks: [AddressBookResult] = []
    /// Address books made for collections new on the server.
    public var addressBooksAdded = 0
    /// Address books removed with their collections.
    public var addressBooksRemoved = 0
    /// Collections made on the server for address books made here.
    public var addressBooksMade = 0
    /// Calendars made for collections new on the server.
    public var calendarsAdded = 0
    /// Calendars removed with their collections.
    public var calendarsRemoved = 0
    /// Collections made on the server for calendars made here.
    public var calendarsMade = 0
    /// Collections removed on the server for calendars and address books removed here.
    public var calendarsRemovedThere = 0
    /// Requests made to the server.
    public var requests = 0
    /// Bytes the server's answers held.
    public var bytes = 0
    /// How long the sync took, from its first request to its last write, in seconds.
    public var seconds = 0.0

    /// Whether the sync wrote anything.
    public var changedStore: Bool {
      calendarsAdded + calendarsRemoved + calendarsMade + calendarsRemovedThere + addressBooksAdded
        + addressBooksRemoved + addressBooksMade > 0
        || collections.contains { $0.applied.lastPosition != nil || $0.sent > 0 || !$0.conflicts.isEmpty }
        || addressBooks.contains { $0.applied.lastPosition != nil || $0.sent > 0 || !$0.conflicts.isEmpty }
    }
  }

  /// Syncs `account` into `store` (the person's session), signing in with `credentials`.
  ///
  /// - Parameters:
  ///   - account: the account, as the store holds it.
  ///   - store: the person's session of the store.
  ///   - credentials: where the password (or token) comes from.
  ///   - timeout: seconds for each request.
  ///   - progress: told after each batch of objects.
  public static func sync(
    _ account: CalendarAccount, into store: EventStore, credentials: AccountCredentials, timeout: Int = 30,
    progress: @escaping (Progress) -> Void = { _ in }
  ) async throws(AccountError) -> Summary {
    let remote = DAVRemote(
      authorization: try credentials.authorization(user: account.user), timeout: timeout, limit: 64 << 20)
    var summary = Summary()
    let clock = ContinuousClock()
    let started = clock.now
    // Calendars and address books removed here first: their collections are removed on the
    // server (`DELETE`), so that the listings below do not bring them back. A server that will
    // not remove one brings it back with the listing.
    let removed = try AccountError.fromStore { () throws(StoreError) in
      try store.removedCollections(ofAccount: account.id)
    }
    for (calendarID, url) in removed {
      guard let address = RemoteURL(url) else { continue }
      let (answer, _) = try await remote.send("DELETE", address, depth: nil, body: nil, forbiddenAnswers: true)
      summary.requests += 1
      if (200..<300).contains(answer.status) || answer.status == 404 || answer.status == 410 {
        summary.calendarsRemovedThere += 1
      }
      try AccountError.fromStore { () throws(StoreError) in
        try store.recordCollectionRemoved(calendarID, ofAccount: account.id)
      }
    }
    guard let homeAddress = account.calendarHome else {
      try await syncAddressBooks(account, into: store.contactStore, remote, &summary, progress)
      let elapsed = clock.now - started
      summary.seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
      return summary
    }
    guard let home = RemoteURL(homeAddress) else { throw .remote(.invalidAddress(homeAddress)) }
    // One listing of the home; when the address books live in the same home, it lists them too.
    var listed = try await AccountDiscovery.collections(in: home, remote)
    var collections = listed.filter { $0.kind == .calendar }
    summary.requests += 1
    let before = try AccountError.fromStore { () throws(StoreError) in try store.calendars(ofAccount: account.id) }
    // Calendars made here whose collections the server does not have yet: made there first
    // (`MKCALENDAR`), then synced like the others. One the server refuses stays here, named.
    var refused: [ObjectID: String] = [:]
    let toMake = before.filter { calendar in
      calendar.remote?.isNew == true && !collections.contains { $0.url == calendar.remote?.url }
    }
    for calendar in toMake {
      guard let address = calendar.remote.flatMap({ RemoteURL($0.url) }) else { continue }
      let (answer, _) = try await remote.send(
        "MKCALENDAR", address, depth: nil, body: Self.mkcalendar(calendar), forbiddenAnswers: true)
      summary.requests += 1
      if (200..<300).contains(answer.status) {
        summary.calendarsMade += 1
      } else {
        refused[calendar.id] = "the server did not make its collection (\(answer.status))"
      }
    }
    if summary.calendarsMade > 0 {
      listed = try await AccountDiscovery.collections(in: home, remote)
      collections = listed.filter { $0.kind == .calendar }
      summary.requests += 1
    }
    var synced: [(EventCalendar, AccountDiscovery.Collection)] = []
    for collection in collections {
      var types: EntityTypes = []
      if collection.components.isEmpty || collection.components.contains("VEVENT") { types.insert(.events) }
      if collection.components.isEmpty || collection.components.contains("VTODO") { types.insert(.reminders) }
      guard !types.isEmpty else { continue }
      // Written only when the collection is new or its name or colour changed on the server.
      let calendar: EventCalendar
      if let known = before.first(where: { $0.remote?.url == collection.url }),
        EventStore.mirror(
          known, title: collection.name, color: collection.color, writable: collection.writable, source: account.source)
          == nil
      {
        calendar = known
      } else {
        calendar = try AccountError.fromStore { () throws(StoreError) in
          try store.mirrorCollection(
            at: collection.url, title: collection.name, color: collection.color, types: types,
            writable: collection.writable, ofAccount: account.id)
        }
      }
      if !before.contains(where: { $0.id == calendar.id }) { summary.calendarsAdded += 1 }
      synced.append((calendar, collection))
    }
    for (id, reason) in refused {
      var result = CollectionResult(
        calendarID: id, title: before.first { $0.id == id }?.title ?? id.description)
      result.quarantined = [.init(name: "(the calendar)", reason: reason)]
      summary.collections.append(result)
    }
    for gone in before where !synced.contains(where: { $0.0.id == gone.id }) && refused[gone.id] == nil {
      try AccountError.fromStore { () throws(StoreError) in try store.removeMirror(gone.id) }
      summary.calendarsRemoved += 1
    }
    for (calendar, collection) in synced {
      var result = try await CollectionSync(
        remote: remote, store: store, calendar: calendar, supportsSyncCollection: collection.syncToken != nil,
        currentCtag: collection.ctag, progress: progress
      ).run()
      // Then what waits to go out: sent after the server's changes came in, so that a change made
      // on both sides is found by the sync (a conflict) rather than by a refused write.
      let sending = try await CollectionSend(
        remote: remote, target: CalendarOutbox(store: store, calendar: calendar)
      ).run()
      result.sent = sending.sent
      result.conflicts = result.applied.conflicts + sending.conflicts
      result.requests += sending.requests
      summary.requests += result.requests
      summary.bytes += result.bytes
      summary.collections.append(result)
    }
    try await syncAddressBooks(
      account, into: store.contactStore, remote, &summary, progress,
      listed: account.addressBookHome == homeAddress ? listed : nil)
    let elapsed = clock.now - started
    summary.seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
    return summary
  }

  /// Syncs the account's address books into `contacts`: its address-book home listed, a contacts
  /// container made for each new collection (and removed for each collection gone), then each
  /// synced from where its last sync ended and what waits in its outbox sent. `listed` is the
  /// listing of the home when the calendar home's was it.
  static func syncAddressBooks(
    _ account: CalendarAccount, into contacts: ContactStore, _ remote: DAVRemote, _ summary: inout Summary,
    _ progress: @escaping (Progress) -> Void, listed: [AccountDiscovery.Collection]? = nil
  ) async throws(AccountError) {
    guard let homeAddress = account.addressBookHome else { return }
    guard let home = RemoteURL(homeAddress) else { throw .remote(.invalidAddress(homeAddress)) }
    var collections: [AccountDiscovery.Collection]
    if let listed {
      collections = listed.filter { $0.kind == .addressBook }
    } else {
      summary.requests += 1
      do {
        collections = try await AccountDiscovery.collections(in: home, remote).filter { $0.kind == .addressBook }
      } catch .refused(403, _) {
        // The user may not read its address books (a server that gave it calendars only, as
        // another Kalends store does to an app without contacts access): they stay as they were.
        return
      }
    }
    let before = try AccountError.fromStore { () throws(StoreError) in try contacts.addressBooks(ofAccount: account.id)
    }
    // Address books made here whose collections the server does not have yet: made there first
    // (extended `MKCOL`, RFC 5689), then synced like the others. One the server refuses stays
    // here, named.
    var refused: [ObjectID: String] = [:]
    let toMake = before.filter { book in
      book.remote?.isNew == true && !collections.contains { $0.url == book.remote?.url }
    }
    for book in toMake {
      guard let address = book.remote.flatMap({ RemoteURL($0.url) }) else { continue }
      let (answer, _) = try await remote.send(
        "MKCOL", address, depth: nil, body: Self.mkcol(book), forbiddenAnswers: true)
      summary.requests += 1
      if (200..<300).contains(answer.status) {
        summary.addressBooksMade += 1
      } else {
        refused[book.id] = "the server did not make its collection (\(answer.status))"
      }
    }
    if summary.addressBooksMade > 0 {
      collections = try await AccountDiscovery.collections(in: home, remote).filter { $0.kind == .addressBook }
      summary.requests += 1
    }
    var synced: [(ContactContainer, AccountDiscovery.Collection)] = []
    for collection in collections {
      let container: ContactContainer
      if let known = before.first(where: { $0.remote?.url == collection.url }), known.title == collection.name,
        known.allowsContentModifications == collection.writable
      {
        container = known
      } else {
        container = try AccountError.fromStore { () throws(StoreError) in
          try contacts.mirrorAddressBook(
            at: collection.url, title: collection.name, writable: collection.writable, ofAccount: account.id)
        }
      }
      if !before.contains(where: { $0.id == container.id }) { summary.addressBooksAdded += 1 }
      synced.append((container, collection))
    }
    for (id, reason) in refused {
      var result = AddressBookResult(containerID: id, title: before.first { $0.id == id }?.title ?? id.description)
      result.quarantined = [.init(name: "(the address book)", reason: reason)]
      summary.addressBooks.append(result)
    }
    for gone in before where !synced.contains(where: { $0.0.id == gone.id }) && refused[gone.id] == nil {
      try AccountError.fromStore { () throws(StoreError) in try contacts.removeAddressBookMirror(gone.id) }
      summary.addressBooksRemoved += 1
    }
    for (container, collection) in synced {
      var result = try await AddressBookSync(
        remote: remote, store: contacts, container: container, supportsSyncCollection: collection.syncToken != nil,
        currentCtag: collection.ctag, progress: progress
      ).run()
      // Then what waits to go out, as for a calendar.
      let sending = try await CollectionSend(
        remote: remote, target: AddressBookOutbox(store: contacts, container: container)
      ).run()
      result.sent = sending.sent
      result.conflicts = result.applied.conflicts + sending.conflicts
      result.requests += sending.requests
      summary.requests += result.requests
      summary.bytes += result.bytes
      summary.addressBooks.append(result)
    }
  }

  /// The extended `MKCOL` body (RFC 5689 §3; RFC 6352 §6.3.1) of an address book made here: an
  /// address book with its title.
  static func mkcol(_ book: ContactContainer) -> String {
    """
    <?xml version="1.0" encoding="utf-8"?><D:mkcol xmlns:D="DAV:" xmlns:CR="urn:ietf:params:xml:ns:carddav">\
    <D:set><D:prop><D:resourcetype><D:collection/><CR:addressbook/></D:resourcetype>\
    <D:displayname>\(XMLText.escaped(book.title))</D:displayname></D:prop></D:set></D:mkcol>
    """
  }

  /// The `MKCALENDAR` body (RFC 4791 §5.3.1) of a calendar made here: its title, colour and the
  /// components it holds.
  static func mkcalendar(_ calendar: EventCalendar) -> String {
    var components = ""
    if calendar.allowedEntityTypes.contains(.events) { components += "<C:comp name=\"VEVENT\"/>" }
    if calendar.allowedEntityTypes.contains(.reminders) { components += "<C:comp name=\"VTODO\"/>" }
    return """
      <?xml version="1.0" encoding="utf-8"?><C:mkcalendar xmlns:D="DAV:" xmlns:C="urn:ietf:params:xml:ns:caldav" \
      xmlns:A="http://apple.com/ns/ical/"><D:set><D:prop><D:displayname>\(XMLText.escaped(calendar.title))</D:displayname>\
      <A:calendar-color>\(XMLText.escaped(calendar.color))</A:calendar-color>\
      <C:supported-calendar-component-set>\(components)</C:supported-calendar-component-set>\
      </D:prop></D:set></C:mkcalendar>
      """
  }
}
