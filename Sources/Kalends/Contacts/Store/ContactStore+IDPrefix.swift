internal import LMDB

extension ContactStore {
  /// The contacts whose identifier begins with `prefix`, as ``EventStore/eventIDs(beginningWith:limit:)``
  /// finds events: live ones this session may see (with limited access, its chosen contacts); an
  /// app's call is a read of its contacts.
  public func contactIDs(beginningWith prefix: String, limit: Int = 10) throws(StoreError) -> [ObjectID] {
    guard let nibbles = IDPrefixScan.nibbles(prefix) else { return [] }
    return try readContacts("read contacts") { txn, view in
      var found: [ObjectID] = []
      let candidates = try IDPrefixScan.ids(
        ContactObjectKind.contact.rawValue, beginningWith: nibbles, in: view.book.objects, txn)
      for id in candidates where found.count < limit {
        if try view.contact(id, in: txn) != nil { found.append(id) }
      }
      return found
    }
  }
}
