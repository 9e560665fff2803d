internal import LMDB

/// The address book itself, as a CardDAV client sees the one collection of cards: its own
/// properties.
extension EventStore {
  /// The WebDAV dead properties CardDAV clients stored on the address book (by name in Clark
  /// notation, each value as the client wrote it, as ``EventCalendar/clientProperties``); empty
  /// when none were. Any access to contacts reads them (they describe the book, not a contact).
  public func addressBookProperties() throws(StoreError) -> [String: String] {
    try readContacts("read the address book") { txn, view in
      guard let state = try view.book.addressBookState(in: txn) else { return [:] }
      return try ModelCodec.clientProperties(tag: 10, of: state)
    }
  }

  /// Sets and removes the address book's dead properties (a `nil` value removes the name) — a
  /// CardDAV `PROPPATCH` of the address book — as one `addressBookSaved` record holding them all;
  /// nothing is written when they stay as they are. The session needs full access to contacts (the
  /// book is shared by every contact, so limited access does not reach it). Throws
  /// ``CalendarError/invalidText(field:reason:)`` when the result holds more than
  /// ``EventCalendar/maximumClientProperties`` or a name or value a calendar's would not.
  ///
  /// Returns the properties as stored.
  @discardableResult
  public func updateAddressBookProperties(_ changes: [String: String?]) throws(StoreError) -> [String: String] {
    let actor = self.actor
    let book = try contactsBook()
    return try write(.change(.contacts, "set the address book's properties")) { txn, appender, _ in
      let current = try txn.reading { txn in
        try book.addressBookState(in: txn).map { try ModelCodec.clientProperties(tag: 10, of: $0) } ?? [:]
      }
      let properties = Self.applying(changes, to: current)
      try Self.checkClientProperties(properties)
      guard properties != current else { return current }
      var state = Payload()
      ModelCodec.appendClientProperties(properties, tag: 10, to: &state)
      var payload = Payload()
      payload.append(tag: 1, id: ContactsProjection.addressBookID)
      payload.append(tag: 5, message: state)
      try appender.append(RecordDraft(kind: .addressBookSaved, principal: actor, payload: payload), in: &txn)
      return properties
    }
  }
}
