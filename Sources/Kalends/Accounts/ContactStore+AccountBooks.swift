internal import LMDB

extension ContactStore {
  /// Makes an address book titled `title` in the account `accountID` and returns it: here at
  /// once (changes to it wait in the outbox), and on the server by the account's next sync — an
  /// extended `MKCOL` (RFC 5689) in the account's address-book home, at an address named by the
  /// book's id — which then syncs it like the others. A server that refuses to make it leaves it
  /// here, tried again at each sync, and removable. The person's only.
  ///
  /// - Throws: ``CalendarError/accountNotFound(_:)``; ``ContactError/invalidField(field:reason:)``
  ///   for an empty title or an account whose server has no address-book home.
  public func addAddressBook(titled title: String, toAccount accountID: ObjectID) throws(StoreError)
    -> ContactContainer
  {
    try session.requireOwner("add address books to accounts")
    try Self.checkContactText(title, "the address book's title")
    if title.isEmpty { throw .contact(.invalidField(field: "the address book's title", reason: "is empty")) }
    return try write(nil) { txn, appender, objects in
      guard let stored = try objects.state(.source, accountID, in: txn), stored.isLive else {
        throw StoreError.calendar(.accountNotFound(accountID))
      }
      let account = try CalendarAccount(id: accountID, version: stored.version, stored.state)
      guard let home = account.addressBookHome else {
        throw StoreError.contact(.invalidField(field: "the account", reason: "has no address-book home"))
      }
      var container = ContactContainer(title: title)
      container.accountID = accountID
      container.creationDate = appender.timestamp
      container.remote = RemoteCollection(
        url: (home.hasSuffix("/") ? home : home + "/") + container.id.description.lowercased() + "/", isNew: true)
      return try Self.appendSaved(container, .person, &txn, &appender)
    }
  }
}
