/// The payload encodings of contacts and groups: their full state, as stored in the `state` field
/// of `contactSaved` and `groupSaved` records (field tags: docs/log-format.md).
enum ContactCodec {
  // MARK: Contacts

  /// A date of a contact: 1 year (when known), 2 month, 3 day.
  static func encode(_ date: ContactDate) -> Payload {
    var payload = Payload()
    if let year = date.year { payload.append(tag: 1, unsigned: UInt64(year)) }
    payload.append(tag: 2, unsigned: UInt64(date.month))
    payload.append(tag: 3, unsigned: UInt64(date.day))
    return payload
  }

  /// The date ``encode(_:)-(ContactDate)`` wrote; `what` names it in the error.
  static func decodeDate(_ date: PayloadReader, _ what: String) throws(StoreError) -> ContactDate {
    let year = try date.unsigned(1).map { Int(clamping: $0) }
    let month = Int(clamping: try date.unsigned(2) ?? 0)
    let day = Int(clamping: try date.unsigned(3) ?? 0)
    guard let value = ContactDate(year: year, month: month, day: day) else {
      throw .malformedPayload("a stored \(what) is not a date")
    }
    return value
  }

  static func encode(_ contact: Contact) -> Payload {
    var state = Payload()
    state.append(tag: 1, string: contact.externalID)
    if contact.kind != .person { state.append(tag: 2, unsigned: UInt64(contact.kind.rawValue)) }
    for (tag, path) in textFields { state.append(tag: tag, optional: contact[keyPath: path]) }
    for email in contact.emailAddresses { state.append(tag: 20, message: labeled(email.label, [email.value])) }
    for phone in contact.phoneNumbers { state.append(tag: 21, message: labeled(phone.label, [phone.value])) }
    for address in contact.postalAddresses {
      state.append(tag: 22, message: labeled(address.label, address.value.parts))
    }
    for url in contact.urlAddresses { state.append(tag: 23, message: labeled(url.label, [url.value])) }
    if let birthday = contact.birthday { state.append(tag: 24, message: encode(birthday)) }
    if let anniversary = contact.anniversary { state.append(tag: 32, message: encode(anniversary)) }
    for group in contact.groupIDs { state.append(tag: 25, id: group) }
    for property in contact.additionalProperties { state.append(tag: 26, string: property) }
    if let created = contact.creationDate { state.append(tag: 27, signed: created.rawValue) }
    state.append(tag: 28, optional: contact.resourceName)
    ModelCodec.appendClientProperties(contact.clientProperties, tag: 30, to: &state)
    if !contact.containerID.isLocalContainer { state.append(tag: 31, id: contact.containerID) }
    return state
  }

  /// The optional text fields and their tags.
  static var textFields: [(UInt8, WritableKeyPath<Contact, String?>)] {
    [
      (3, \.namePrefix), (4, \.givenName), (5, \.middleName), (6, \.familyName), (7, \.nameSuffix),
      (8, \.nickname), (9, \.phoneticGivenName), (10, \.phoneticMiddleName), (11, \.phoneticFamilyName),
      (12, \.organizationName), (13, \.departmentName), (14, \.jobTitle), (15, \.note),
    ]
  }

  /// A labeled value: its label (tag 1) and its parts (tag 2, in order).
  private static func labeled(_ label: String?, _ parts: [String]) -> Payload {
    var message = Payload()
    message.append(tag: 1, optional: label)
    for part in parts { message.append(tag: 2, string: part) }
    return message
  }

  static func decodeContact(
    id: ObjectID, version: LogPosition, modified: Timestamp?, _ state: PayloadReader
  ) throws(StoreError) -> Contact {
    var contact = Contact()
    contact.id = id
    contact.externalID = try state.requiredString(1)
    contact.kind = Contact.Kind(rawValue: UInt8(truncatingIfNeeded: try state.unsigned(2) ?? 0)) ?? .person
    for (tag, path) in textFields { contact[keyPath: path] = try state.string(tag) }
    func labeled(_ tag: UInt8) throws(StoreError) -> [(String?, [String])] {
      var out: [(String?, [String])] = []
      for message in try state.messages(tag) { out.append((try message.string(1), try message.strings(2))) }
      return out
    }
    func single(_ tag: UInt8) throws(StoreError) -> [LabeledValue<String>] {
      try labeled(tag).map { LabeledValue(label: $0.0, value: $0.1.first ?? "") }
    }
    contact.emailAddresses = try single(20)
    contact.phoneNumbers = try single(21)
    contact.postalAddresses = try labeled(22).map { LabeledValue(label: $0.0, value: PostalAddress(parts: $0.1)) }
    contact.urlAddresses = try single(23)
    if let date = try state.messages(24).first { contact.birthday = try decodeDate(date, "birthday") }
    if let date = try state.messages(32).first { contact.anniversary = try decodeDate(date, "anniversary") }
    contact.groupIDs = try state.objectIDs(25)
    contact.additionalProperties = try state.strings(26)
    contact.creationDate = try state.signed(27).map(Timestamp.init(rawValue:))
    contact.resourceName = try state.string(28)
    contact.clientProperties = try ModelCodec.clientProperties(tag: 30, of: state)
    contact.containerID = try container(of: state)
    contact.version = version
    contact.lastModifiedDate = modified
    return contact
  }

  // MARK: Groups

  static func encode(_ group: ContactGroup) -> Payload {
    var state = Payload()
    state.append(tag: 1, string: group.externalID)
    state.append(tag: 2, string: group.name)
    for property in group.additionalProperties { state.append(tag: 26, string: property) }
    if let created = group.creationDate { state.append(tag: 27, signed: created.rawValue) }
    state.append(tag: 28, optional: group.resourceName)
    for member in group.pendingMembers { state.append(tag: 29, string: member) }
    ModelCodec.appendClientProperties(group.clientProperties, tag: 30, to: &state)
    if !group.containerID.isLocalContainer { state.append(tag: 31, id: group.containerID) }
    return state
  }

  static func decodeGroup(
    id: ObjectID, version: LogPosition, modified: Timestamp?, _ state: PayloadReader
  ) throws(StoreError) -> ContactGroup {
    var group = ContactGroup(name: try state.string(2) ?? "")
    group.id = id
    group.externalID = try state.requiredString(1)
    group.additionalProperties = try state.strings(26)
    group.creationDate = try state.signed(27).map(Timestamp.init(rawValue:))
    group.resourceName = try state.string(28)
    group.pendingMembers = try state.strings(29)
    group.clientProperties = try ModelCodec.clientProperties(tag: 30, of: state)
    group.containerID = try container(of: state)
    group.version = version
    group.lastModifiedDate = modified
    return group
  }

  /// The container a contact's or a group's state names (field 31), the local one when it names
  /// none.
  static func container(of state: PayloadReader) throws(StoreError) -> ObjectID {
    try state.objectIDs(31).first ?? ContactContainer.localID
  }

  // MARK: Containers

  /// A container's state (`addressBookSaved`'s field 5): its title (1), the name a client made it
  /// under (2), the app that made it (3), when it was made (27), its dead properties (10), and for
  /// an account's address book the account (11) and the collection it mirrors (13, as a
  /// calendar's ``RemoteCollection``).
  static func encode(_ container: ContactContainer) -> Payload {
    var state = Payload()
    if !container.isLocal || container.title != ContactContainer.localTitle {
      state.append(tag: 1, string: container.title)
    }
    if !container.isLocal { state.append(tag: 2, optional: container.resourceName) }
    state.append(tag: 3, optional: container.creator)
    if let created = container.creationDate { state.append(tag: 27, signed: created.rawValue) }
    ModelCodec.appendClientProperties(container.clientProperties, tag: 10, to: &state)
    if let account = container.accountID { state.append(tag: 11, id: account) }
    container.remote?.append(to: &state)
    if !container.allowsContentModifications { state.append(tag: 14, bool: true) }
    return state
  }

  static func decodeContainer(
    id: ObjectID, version: LogPosition, _ state: PayloadReader?
  ) throws(StoreError) -> ContactContainer {
    var container = ContactContainer(title: ContactContainer.localTitle)
    container.id = id
    container.version = version
    guard let state else {
      container.resourceName = id == ContactContainer.localID ? ContactContainer.localResourceName : nil
      return container
    }
    container.title = try state.string(1) ?? (id == ContactContainer.localID ? ContactContainer.localTitle : "")
    container.resourceName =
      id == ContactContainer.localID ? ContactContainer.localResourceName : try state.string(2)
    container.creator = try state.string(3)
    container.creationDate = try state.signed(27).map(Timestamp.init(rawValue:))
    container.clientProperties = try ModelCodec.clientProperties(tag: 10, of: state)
    container.accountID = try state.objectIDs(11).first
    container.remote = try state.messages(13).first.map(RemoteCollection.init)
    container.allowsContentModifications = try state.bool(14) != true
    return container
  }
}

extension ObjectID {
  /// Whether this is the identifier of the store's local contacts container.
  var isLocalContainer: Bool { self == ContactContainer.localID }
}
