internal import LMDB

/// The contacts book: which contacts and groups exist, with their versions, an index of names,
/// email addresses and phone numbers for prefix search, and the members of each group.
///
/// Databases:
/// - `contacts`: key `type (1 byte: 4 contact, 5 group) ‖ id (16)`, value `version (8) ‖ modified
///   timestamp (8) ‖ live (1)`, then the keys the object holds in the other two databases
///   (``OwnedKeys``), so that the next change removes them without reading the log. The state is
///   not copied: it is the `state` field of the save at `version`, read from the log. A removed
///   object keeps its tombstone (`live` 0).
///   Each contacts container (address book) has the entry `6 ‖ id (16)` (the local one's id is
///   ``ContactContainer/localID``), naming its last `addressBookSaved` (removed: `live` 0).
/// - `contacts.search`: keys of ``ContactSearchKey``, empty values: the search index of the live
///   contacts; their external identifiers and the groups' for imports; the names CardDAV clients
///   stored them under; the `UID`s groups wait for (``ContactGroup/pendingMembers``); and the
///   contacts and groups of each container (``ContactSearchKey/containerKey(_:_:_:)``); the
///   contacts' birthdays and anniversaries by month and day (``ContactSearchKey/dateKey(_:_:_:)``),
///   which the birthdays calendar reads.
/// - `contacts.members`: key `group id (16) ‖ contact id (16)`, empty value: the live contacts of
///   each live group.
/// - `contacts.createdBy`: key `client ‖ 0 ‖ contact id (16)`, empty value: the contacts each app
///   created (which it may use with limited access).
///
/// Keys are derived from the state of the record applied (an erased one indexes nothing), and a
/// change removes those the entry lists: a replay of an erased log reaches the same keys.
struct ContactsProjection: Projection {
  static let name = "contacts"
  static let version: UInt32 = 9
  enum DatabaseName {
    static let objects = "contacts"
    static let search = "contacts.search"
    static let members = "contacts.members"
    static let createdBy = "contacts.createdBy"
  }
  static let databaseNames = [DatabaseName.objects, DatabaseName.search, DatabaseName.members, DatabaseName.createdBy]
  static let kinds: Set<RecordKind> = [
    .contactSaved, .contactRemoved, .groupSaved, .groupRemoved, .addressBookSaved, .addressBookRemoved,
  ]

  /// The first byte of a container's key in `contacts`.
  static let containerKeyType: UInt8 = 6

  /// The key of the entry of the container `id` in `contacts`.
  static func containerKey(_ id: ObjectID) -> [UInt8] { [containerKeyType] + id.bytes }

  let objects: Database
  let search: Database
  let members: Database
  let createdBy: Database
  let log: Database

  init(databases: [String: Database], log: Database) {
    objects = databases[DatabaseName.objects]!
    search = databases[DatabaseName.search]!
    members = databases[DatabaseName.members]!
    createdBy = databases[DatabaseName.createdBy]!
    self.log = log
  }

  func apply(_ header: LogRecordHeader, payload: RawSpan, in txn: inout WriteTransaction) throws {
    let fields = try PayloadReader(bytes: payload)
    let id = try fields.requiredObjectID(1)
    if header.kind == .addressBookSaved || header.kind == .addressBookRemoved {
      let live = header.kind == .addressBookSaved
      try txn.put(OwnedKeys().entry(header, live: live), forKey: Self.containerKey(id), in: objects)
      return
    }
    let kind: ContactObjectKind = header.kind == .contactSaved || header.kind == .contactRemoved ? .contact : .group
    // What the save before this one indexed goes first: it is listed in the entry, not re-derived
    // from the log (a verification rebuilds without the log at hand).
    var lastSave: LogPosition?
    if let previous = try txn.withValue(forKey: kind.key(id), in: objects, { Array(copying: $0) }) {
      let owned = try OwnedKeys(entry: previous)
      if previous[16] == 1 { lastSave = try StoredContact(entry: previous.span.bytes).version }
      for key in owned.search { try txn.delete(key, in: search) }
      for group in owned.groups { try txn.delete(group.bytes + id.bytes, in: members) }
    }
    var owned = OwnedKeys()
    // A contact an app creates is one it may always use, also with limited access.
    if header.kind == .contactSaved, case .client(let client) = header.principal,
      try fields.unsigned(3) == ItemChange.created.rawValue
    {
      try txn.put([UInt8](), forKey: Array(client.utf8) + [0] + id.bytes, in: createdBy)
    }
    switch header.kind {
    case .contactSaved:
      if let state = try fields.messages(5).first {
        let contact = try ContactCodec.decodeContact(id: id, version: .none, modified: nil, state)
        owned.search = ContactSearchKey.texts(of: contact).map { ContactSearchKey.key($0.0, $0.1, id) }
        owned.search.append(ContactSearchKey.externalKey(.contactExternalID, contact.externalID, id))
        if let name = contact.resourceName {
          owned.search.append(ContactSearchKey.externalKey(.contactResourceName, name, id))
        }
        owned.search.append(ContactSearchKey.containerKey(contact.containerID, .contact, id))
        if let birthday = contact.birthday { owned.search.append(ContactSearchKey.dateKey(birthday, .birthday, id)) }
        if let anniversary = contact.anniversary {
          owned.search.append(ContactSearchKey.dateKey(anniversary, .anniversary, id))
        }
        var groups: [ObjectID] = []
        for group in contact.groupIDs where try !groups.contains(group) && isLive(.group, group, in: txn) {
          groups.append(group)
        }
        owned.groups = groups
      }
    case .groupSaved:
      if let state = try fields.messages(5).first {
        let group = try ContactCodec.decodeGroup(id: id, version: .none, modified: nil, state)
        owned.search = [ContactSearchKey.externalKey(.groupExternalID, group.externalID, id)]
        if let name = group.resourceName {
          owned.search.append(ContactSearchKey.externalKey(.groupResourceName, name, id))
        }
        owned.search.append(ContactSearchKey.containerKey(group.containerID, .group, id))
        // In a fixed order: the entry lists these keys, and a rebuild in another process must
        // write the same bytes (a Set's order is seeded per process).
        for uid in Set(group.pendingMembers).sorted() {
          owned.search.append(ContactSearchKey.externalKey(.pendingMember, uid, id))
        }
      }
    case .groupRemoved:
      for key in try txn.withCursor(on: members, { try $0.keys(withPrefix: id.bytes) }) {
        try txn.delete(key, in: members)
      }
    default:
      break
    }
    for key in owned.search { try txn.put([UInt8](), forKey: key, in: search) }
    for group in owned.groups { try txn.put([UInt8](), forKey: group.bytes + id.bytes, in: members) }
    let live = header.kind == .contactSaved || header.kind == .groupSaved
    // A contact or group removed by a record of its own keeps its last save, which names what it
    // was (an address book's sync names it by that).
    let removed = header.kind == .contactRemoved || header.kind == .groupRemoved
    try txn.put(owned.entry(header, live: live, lastSave: removed ? lastSave : nil), forKey: kind.key(id), in: objects)
  }

  // MARK: Reading

  /// Whether the object exists and is not removed.
  func isLive(_ kind: ContactObjectKind, _ id: ObjectID, in txn: borrowing ReadTransaction) throws -> Bool {
    try txn.withValue(forKey: kind.key(id), in: objects) { try StoredContact(entry: $0).isLive } ?? false
  }

  /// Whether the object exists and is not removed.
  func isLive(_ kind: ContactObjectKind, _ id: ObjectID, in txn: borrowing WriteTransaction) throws -> Bool {
    try txn.reading { try isLive(kind, id, in: $0) }
  }

  /// The state a contact or group removed by a record of its own had at its last save
  /// (``StoredContact/lastSave``): empty once that save's content is erased; `nil` when `stored`
  /// names no such save.
  func lastState(
    _ stored: StoredContact, _ kind: ContactObjectKind = .contact, _ id: ObjectID, in txn: borrowing ReadTransaction
  ) throws -> PayloadReader? {
    guard !stored.isLive, let lastSave = stored.lastSave else { return nil }
    return try SavedState.read(
      kind.description, id, saveKind: kind.saveKind, at: lastSave,
      projection: Self.name
    ) { position, body in
      try txn.withValue(forKey: BigEndianKey(position.rawValue), in: log, body)
    }
  }

  /// The stored object with its state read from the log when it is live; `nil` if it never existed.
  func state(_ kind: ContactObjectKind, _ id: ObjectID, in txn: borrowing ReadTransaction) throws -> StoredContact? {
    guard var stored = try txn.withValue(forKey: kind.key(id), in: objects, { try StoredContact(entry: $0) }) else {
      return nil
    }
    guard stored.isLive else { return stored }
    let state = try SavedState.read(
      kind.description, id, saveKind: kind.saveKind, at: stored.version, projection: Self.name
    ) { position, body in
      try txn.withValue(forKey: BigEndianKey(position.rawValue), in: log, body)
    }
    stored.state = state
    return stored
  }

  /// The container `id` as stored: the local one always (as it stood before any save when none
  /// was saved); `nil` for one that does not exist or was removed.
  func container(_ id: ObjectID, in txn: borrowing ReadTransaction) throws -> ContactContainer? {
    let stored = try txn.withValue(forKey: Self.containerKey(id), in: objects) { try StoredContact(entry: $0) }
    guard let stored else { return id.isLocalContainer ? .local : nil }
    guard stored.isLive else { return nil }
    let state = try SavedState.read(
      "address book", id, saveKind: .addressBookSaved, at: stored.version, projection: Self.name
    ) { position, body in
      try txn.withValue(forKey: BigEndianKey(position.rawValue), in: log, body)
    }
    return try ContactCodec.decodeContainer(id: id, version: stored.version, state)
  }

  /// ``container(_:in:)`` inside a write transaction.
  func container(_ id: ObjectID, in txn: borrowing WriteTransaction) throws -> ContactContainer? {
    try txn.reading { try container(id, in: $0) }
  }

  /// The identifiers of the live containers, the local one first.
  func containerIDs(in txn: borrowing ReadTransaction) throws -> [ObjectID] {
    var ids = [ContactContainer.localID]
    try txn.withCursor(on: objects) { cursor in
      try cursor.forEach(withPrefix: [Self.containerKeyType]) { key, value in
        let id = ObjectID(bytes: key[1...])!
        if !id.isLocalContainer, try StoredContact(entry: value).isLive { ids.append(id) }
      }
    }
    return ids
  }

  /// The live contacts (or groups) of the container `container`.
  func members(
    ofContainer container: ObjectID, _ kind: ContactObjectKind, in txn: borrowing ReadTransaction
  ) throws -> [ObjectID] {
    let prefix = ContactSearchKey.containerKey(container, kind, nil)
    return try txn.withCursor(on: search) { try $0.keys(withPrefix: prefix) }.map {
      ObjectID(bytes: $0[prefix.count...])!
    }
  }

  /// The container the live contact or group `id` belongs to; `nil` when it is not live.
  func container(of kind: ContactObjectKind, _ id: ObjectID, in txn: borrowing ReadTransaction) throws -> ObjectID? {
    guard let stored = try state(kind, id, in: txn), stored.isLive else { return nil }
    return try ContactCodec.container(of: stored.state)
  }

  /// ``state(_:_:in:)`` inside a write transaction.
  func state(_ kind: ContactObjectKind, _ id: ObjectID, in txn: borrowing WriteTransaction) throws -> StoredContact? {
    try txn.reading { try state(kind, id, in: $0) }
  }

  /// The latest version among the live objects of `kind`, and how many there are (`only`: among
  /// those), from their entries alone.
  func latest(
    _ kind: ContactObjectKind, only: Set<ObjectID>?, in container: ObjectID, txn: borrowing ReadTransaction
  ) throws -> (version: LogPosition, count: Int) {
    var latest = LogPosition.none
    var count = 0
    for id in try members(ofContainer: container, kind, in: txn) where only?.contains(id) ?? true {
      guard let entry = try txn.withValue(forKey: kind.key(id), in: objects, { try StoredContact(entry: $0) }),
        entry.isLive
      else { continue }
      latest = max(latest, entry.version)
      count += 1
    }
    return (latest, count)
  }

  /// The identifiers of every live object of `kind`, in key order.
  func all(_ kind: ContactObjectKind, in txn: borrowing ReadTransaction) throws -> [ObjectID] {
    var ids: [ObjectID] = []
    try txn.withCursor(on: objects) { cursor in
      try cursor.forEach(withPrefix: [kind.rawValue]) { key, value in
        if try StoredContact(entry: value).isLive { ids.append(ObjectID(bytes: key[1...])!) }
      }
    }
    return ids
  }

  /// The live contacts with a key in `field` that starts with `prefix` (normalized), each once.
  func ids(_ field: ContactSearchKey.Field, prefix: [UInt8], in txn: borrowing ReadTransaction) throws -> [ObjectID] {
    var found: Set<ObjectID> = []
    var ordered: [ObjectID] = []
    try txn.withCursor(on: search) { cursor in
      try cursor.forEach(withPrefix: [field.rawValue] + prefix) { key, _ in
        let id = ObjectID(bytes: key[(key.count - 16)...])!
        if found.insert(id).inserted { ordered.append(id) }
      }
    }
    return ordered
  }

  /// The live contacts' birthdays and anniversaries on `month`/`day`, or with `nil` every one.
  func dates(onMonth month: Int?, day: Int?, in txn: borrowing ReadTransaction) throws -> [BirthdayEntry] {
    var prefix = [ContactSearchKey.Field.date.rawValue]
    if let month, let day { prefix += [UInt8(month), UInt8(day)] }
    return try txn.withCursor(on: search) { try $0.keys(withPrefix: prefix) }.compactMap(ContactSearchKey.dateEntry)
  }

  /// The contacts `client` created (live or not).
  func created(by client: String, in txn: borrowing ReadTransaction) throws -> Set<ObjectID> {
    let prefix = Array(client.utf8) + [0]
    return Set(
      try txn.withCursor(on: createdBy) { try $0.keys(withPrefix: prefix) }.compactMap {
        ObjectID(bytes: $0[prefix.count...])
      })
  }

  /// The live contacts in `group`.
  func members(of group: ObjectID, in txn: borrowing ReadTransaction) throws -> [ObjectID] {
    try txn.withCursor(on: members) { try $0.keys(withPrefix: group.bytes) }.map { ObjectID(bytes: $0[16...])! }
  }
}

/// The kinds of object in the contacts book, as numbered in `contacts` keys and in `contentErased`
/// records (after the calendar kinds 1–3).
enum ContactObjectKind: UInt8, Sendable, CustomStringConvertible {
  case contact = 4
  case group = 5

  func key(_ id: ObjectID) -> [UInt8] { [rawValue] + id.bytes }

  var saveKind: RecordKind { self == .contact ? .contactSaved : .groupSaved }
  var removeKind: RecordKind { self == .contact ? .contactRemoved : .groupRemoved }

  var description: String { self == .contact ? "contact" : "group" }
}

/// One entry of `contacts`: version, time of the change, whether live; and the state once read.
struct StoredContact {
  let version: LogPosition
  let modified: Timestamp
  let isLive: Bool
  /// For a contact removed by a record of its own: its last save.
  let lastSave: LogPosition?
  var state: PayloadReader

  init(entry bytes: RawSpan) throws {
    guard bytes.byteCount >= 17 else {
      throw StoreError.malformedPayload("a stored contact is \(bytes.byteCount) bytes, not 17 or more")
    }
    version = LogPosition(UInt64(bigEndian: bytes.unsafeLoadUnaligned(fromByteOffset: 0, as: UInt64.self)))
    modified = Timestamp(
      rawValue: Int64(bitPattern: UInt64(bigEndian: bytes.unsafeLoadUnaligned(fromByteOffset: 8, as: UInt64.self))))
    isLive = bytes.unsafeLoad(fromByteOffset: 16, as: UInt8.self) == 1
    lastSave =
      !isLive && bytes.byteCount == 25
      ? LogPosition(UInt64(bigEndian: bytes.unsafeLoadUnaligned(fromByteOffset: 17, as: UInt64.self))) : nil
    state = try PayloadReader(Payload())
  }
}

/// The keys a contact or group holds in `contacts.search` and `contacts.members`, listed after the
/// 17 bytes of its `contacts` entry: `count (2) ‖ (length (2) ‖ search key)… ‖ count (2) ‖ group
/// id (16)…`.
struct OwnedKeys {
  var search: [[UInt8]] = []
  var groups: [ObjectID] = []

  init() {}

  /// The keys listed in an entry.
  init(entry: [UInt8]) throws {
    var offset = 17
    func number() throws -> Int {
      guard offset + 2 <= entry.count else {
        throw StoreError.malformedPayload("a stored contact's keys are cut short")
      }
      defer { offset += 2 }
      return Int(entry[offset]) << 8 | Int(entry[offset + 1])
    }
    guard entry.count > offset, entry[16] == 1 else { return }
    for _ in 0..<(try number()) {
      let length = try number()
      guard offset + length <= entry.count else {
        throw StoreError.malformedPayload("a stored contact's keys are cut short")
      }
      search.append(Array(entry[offset..<(offset + length)]))
      offset += length
    }
    for _ in 0..<(try number()) {
      guard let id = ObjectID(bytes: entry[offset..<min(entry.count, offset + 16)]) else {
        throw StoreError.malformedPayload("a stored contact's groups are cut short")
      }
      groups.append(id)
      offset += 16
    }
  }

  /// The entry of an object changed by `header`, listing these keys; a removed one's holds its
  /// `lastSave` when it has one.
  func entry(_ header: LogRecordHeader, live: Bool, lastSave: LogPosition? = nil) -> [UInt8] {
    var entry: [UInt8] = []
    RecordCodec.appendBigEndian(header.position.rawValue, to: &entry)
    RecordCodec.appendBigEndian(UInt64(bitPattern: header.timestamp.rawValue), to: &entry)
    entry.append(live ? 1 : 0)
    guard live else {
      if let lastSave { RecordCodec.appendBigEndian(lastSave.rawValue, to: &entry) }
      return entry
    }
    func number(_ value: Int) { entry += [UInt8(value >> 8), UInt8(value & 0xFF)] }
    number(search.count)
    for key in search {
      number(key.count)
      entry += key
    }
    number(groups.count)
    for group in groups { group.append(to: &entry) }
    return entry
  }
}
