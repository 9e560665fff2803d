internal import LMDB

/// The cards of account address books in the outbox: which of them wait to go out, and the
/// server's `ETag` of each.
///
/// A card's name is its contact's or group's name in the collection (``Contact/resourceName``,
/// else its `UID`). What is a change of a card:
/// - a contact's save by anyone but the account whose card (its fields, without its groups and
///   when it was made) differs from the one before; a group's save by anyone but the account;
/// - a contact or group removed by anyone but the account;
/// - a contact joining or leaving a group, by anyone but the account: the group's card, which
///   lists its members, changed.
///
/// The account's save carrying `remoteEntityTag` (field 9 of `contactSaved` and `groupSaved`) is
/// the server's version of that card: nothing of it waits any more. The account's other saves (a
/// member joining a group because the server's group card says so) change no card.
extension OutboxProjection {
  static let cardKinds: Set<RecordKind> = [
    .addressBookSaved, .addressBookRemoved, .contactSaved, .contactRemoved, .groupSaved, .groupRemoved,
  ]

  func applyCard(_ header: LogRecordHeader, payload: RawSpan, in txn: inout WriteTransaction) throws {
    let fields = try PayloadReader(bytes: payload)
    let id = try fields.requiredObjectID(1)
    switch header.kind {
    case .addressBookSaved:
      let state = try PayloadReader(Payload(bytes: fields.bytes(5) ?? []))
      try collectionSaved(id, account: try state.objectIDs(11).first, remote: state.bytes(13), &txn)
    case .addressBookRemoved:
      if try txn.contains(id.bytes, in: calendars) { try collectionRemoved(id, header, &txn) }
    case .contactSaved, .groupSaved:
      let kind: ContactObjectKind = header.kind == .contactSaved ? .contact : .group
      let stateBytes = fields.bytes(5) ?? []
      let state = try PayloadReader(Payload(bytes: stateBytes))
      // Most cards are in no account's book: the local container is named by no field.
      guard let container = try state.objectID(31), let account = try account(of: container, &txn) else { return }
      let name = try state.string(28) ?? state.requiredString(1)
      let key = kind.key(id)
      let previous = try card(key, &txn)
      var entry = Card(container: container, name: name, entityTag: previous?.entityTag)
      if kind == .contact {
        entry.groups = try state.objectIDs(25)
        entry.digest = try Self.contentDigest(id: id, state)
      }
      if header.principal == .source(account.description) {
        if let serverTag = try fields.string(9) {
          // The server's version: what it holds, and nothing of it waits.
          entry.entityTag = serverTag
          try txn.put(entry.encoded, forKey: key, in: cards)
          if let previous, previous.name != name { try unqueue(previous.name, container, &txn) }
          try unqueue(name, container, &txn)
        } else {
          try txn.put(entry.encoded, forKey: key, in: cards)
        }
        return
      }
      if let previous, previous.name != name {
        try queue(previous.name, base: previous.entityTag, container, header.position, &txn)
        entry.entityTag = nil
        try queue(name, base: nil, container, header.position, &txn)
      } else if kind == .group || previous == nil || previous?.digest != entry.digest {
        try queue(name, base: previous?.entityTag, container, header.position, &txn)
      }
      try txn.put(entry.encoded, forKey: key, in: cards)
      if kind == .contact {
        let before = Set(previous?.groups ?? [])
        try queueGroups(before.symmetricDifference(entry.groups), container, header.position, &txn)
      }
    case .contactRemoved, .groupRemoved:
      let kind: ContactObjectKind = header.kind == .contactRemoved ? .contact : .group
      let key = kind.key(id)
      guard let previous = try card(key, &txn) else { return }
      try txn.delete(key, in: cards)
      guard let account = try account(of: previous.container, &txn) else { return }
      if header.principal == .source(account.description) {
        try unqueue(previous.name, previous.container, &txn)
      } else {
        try queue(previous.name, base: previous.entityTag, previous.container, header.position, &txn)
        try queueGroups(Set(previous.groups), previous.container, header.position, &txn)
      }
    default:
      break
    }
  }

  /// The cards of the groups `groups`, whose members changed at `position`, wait to go out.
  private func queueGroups(
    _ groups: Set<ObjectID>, _ container: ObjectID, _ position: LogPosition, _ txn: inout WriteTransaction
  ) throws {
    for group in groups.sorted(by: { $0.bytes.lexicographicallyPrecedes($1.bytes) }) {
      guard let entry = try card(ContactObjectKind.group.key(group), &txn), entry.container == container else {
        continue
      }
      try queue(entry.name, base: entry.entityTag, container, position, &txn)
    }
  }

  /// The server now holds the card of `kind` `id` at `name` with `entityTag` (a
  /// ``RecordKind/remoteDelivered`` naming it).
  func delivered(
    _ kind: ContactObjectKind, _ id: ObjectID, name: String, entityTag: String?, _ txn: inout WriteTransaction
  ) throws {
    let key = kind.key(id)
    guard var entry = try card(key, &txn) else { return }
    (entry.name, entry.entityTag) = (name, entityTag)
    try txn.put(entry.encoded, forKey: key, in: cards)
  }

  /// Forgets the cards of the address book `container`.
  func forgetCards(ofContainer container: ObjectID, _ txn: inout WriteTransaction) throws {
    let keys = try txn.withCursor(on: cards) { cursor in
      var keys: [[UInt8]] = []
      try cursor.forEach(withPrefix: []) { key, value in
        if try Card(PayloadReader(Payload(bytes: Array(copying: value)))).container == container { keys.append(key) }
      }
      return keys
    }
    for key in keys { try txn.delete(key, in: cards) }
  }

  private func card(_ key: [UInt8], _ txn: inout WriteTransaction) throws -> Card? {
    try txn.value(forKey: key, in: cards).map { try Card(PayloadReader(Payload(bytes: $0))) }
  }

  /// A digest of a contact's card: its stored state without its groups (a group's card lists
  /// them) and when it was made, which no card carries.
  static func contentDigest(id: ObjectID, _ state: PayloadReader) throws -> [UInt8] {
    var contact = try ContactCodec.decodeContact(id: id, version: .none, modified: nil, state)
    contact.groupIDs = []
    contact.creationDate = nil
    let digest = ContactCodec.encode(contact).bytes.withUnsafeBytes(ObjectProjection.externalDigest)
    return Payload.bigEndianBytes(digest.0) + Payload.bigEndianBytes(digest.1)
  }

  // MARK: Reading

  /// The card of `kind` `id` as the outbox knows it, when it is in an account's address book.
  func card(_ kind: ContactObjectKind, _ id: ObjectID, in txn: borrowing ReadTransaction) throws -> Card? {
    try txn.value(forKey: kind.key(id), in: cards).map { try Card(PayloadReader(Payload(bytes: $0))) }
  }

  /// A card of an account's address book: its book, its name in the collection, the server's
  /// `ETag` of it, and for a contact its groups and a digest of its card.
  struct Card: Equatable {
    var container: ObjectID
    var name: String
    var entityTag: String?
    var groups: [ObjectID] = []
    var digest: [UInt8]?

    init(container: ObjectID, name: String, entityTag: String?) {
      (self.container, self.name, self.entityTag) = (container, name, entityTag)
    }

    init(_ fields: PayloadReader) throws(StoreError) {
      container = try fields.requiredObjectID(1)
      name = try fields.requiredString(2)
      entityTag = try fields.string(3)
      groups = try fields.objectIDs(4)
      digest = fields.bytes(5)
    }

    var encoded: [UInt8] {
      var payload = Payload()
      payload.append(tag: 1, id: container)
      payload.append(tag: 2, string: name)
      payload.append(tag: 3, optional: entityTag)
      for group in groups { payload.append(tag: 4, id: group) }
      if let digest { payload.append(tag: 5, bytes: digest) }
      return payload.bytes
    }
  }
}
