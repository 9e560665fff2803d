import Kalends
import Testing

@Suite("Contacts: an app needs access, as iOS guards them")
struct ContactAccessTests {
  static let app = "com.example.addressbook"

  /// A store with one contact, one group, and a registered app that explains its use of contacts.
  struct Fixture {
    let store: Store
    let owner: EventStore
    let contact: Contact
    let group: ContactGroup

    init(_ store: Store) throws {
      self.store = store
      owner = EventStore(store: store)
      group = try owner.contactStore.save(ContactGroup(name: "Family"))
      var contact = Contact(givenName: "Ann", familyName: "Lee")
      contact.groupIDs = [group.id]
      self.contact = try owner.contactStore.save(contact)
      try owner.register(
        Client(id: ContactAccessTests.app, name: "Address Book", usageDescriptions: [.contacts: "Finds your friends."]))
    }

    /// Every read and write path of the contacts API, by name.
    func calls(_ app: EventStore) -> [(String, () throws -> Void)] {
      let vcard = Array("BEGIN:VCARD\r\nVERSION:3.0\r\nN:Park;Bo;;;\r\nFN:Bo Park\r\nEND:VCARD\r\n".utf8)
      var copy = contact
      return [
        ("contact(withID:)", { _ = try app.contactStore.contact(withID: contact.id) }),
        ("contacts()", { _ = try app.contactStore.contacts() }),
        ("contacts(name)", { _ = try app.contactStore.contacts(matching: .name("ann")) }),
        ("contacts(email)", { _ = try app.contactStore.contacts(matching: .emailAddress("a")) }),
        ("contacts(phone)", { _ = try app.contactStore.contacts(matching: .phoneNumber("5")) }),
        ("contacts(group)", { _ = try app.contactStore.contacts(matching: .group(group.id)) }),
        ("groups()", { _ = try app.contactStore.groups() }),
        ("group(withID:)", { _ = try app.contactStore.group(withID: group.id) }),
        ("save(contact)", { _ = try app.contactStore.save(Contact(givenName: "Mallory")) }),
        ("remove(contact)", { try app.contactStore.remove(contact) }),
        ("save(group)", { _ = try app.contactStore.save(ContactGroup(name: "Stolen")) }),
        ("remove(group)", { try app.contactStore.remove(group) }),
        ("addMember", { _ = try app.contactStore.addMember(contact.id, to: group.id) }),
        ("removeMember", { _ = try app.contactStore.removeMember(contact.id, from: group.id) }),
        ("importVCards", { _ = try app.contactStore.importVCards(vcard) }),
        ("exportVCards", { _ = try app.contactStore.exportVCards() }),
        ("contact(named:)", { _ = try app.contactStore.contact(named: contact.externalID) }),
        ("putContact", { _ = try app.contactStore.putContact(Contact(givenName: "Mallory")) }),
        ("removeContact(named:)", { try app.contactStore.removeContact(named: contact.externalID) }),
        ("contactChanges", { _ = try app.contactStore.contactChanges(after: nil) }),
        ("contactsStamp", { _ = try app.contactStore.contactsStamp() }),
        ("groupCards()", { _ = try app.contactStore.groupCards() }),
        ("groupCard(named:)", { _ = try app.contactStore.groupCard(named: group.externalID) }),
        (
          "putGroup",
          { _ = try app.contactStore.putGroup(GroupCard(group: ContactGroup(name: "Stolen"), memberUIDs: [])) }
        ),
        ("removeGroup(named:)", { try app.contactStore.removeGroup(named: group.externalID) }),
        ("addressObjects()", { _ = try app.contactStore.addressObjects() }),
        ("addressObject(named:)", { _ = try app.contactStore.addressObject(named: group.externalID) }),
        (
          "putAddressObject",
          { _ = try app.contactStore.putAddressObject(.contact(Contact(givenName: "Eve")), named: "eve") }
        ),
        ("removeAddressObject", { try app.contactStore.removeAddressObject(named: contact.externalID) }),
        ("refresh", { _ = try app.contactStore.refresh(&copy) }),
      ]
    }
  }

  @Test(arguments: [AuthorizationStatus.notDetermined, .denied, .restricted])
  func anAppWithoutAccessGetsNothingAndEveryAttemptIsRecorded(status: AuthorizationStatus) throws {
    try withStore { store, _ in
      let fixture = try Fixture(store)
      switch status {
      case .denied: try fixture.owner.privacySettings().setAccess(.denied, for: Self.app, service: .contacts)
      case .restricted: try fixture.owner.privacySettings().restrict(Self.app, service: .contacts, policy: "mdm")
      default: break
      }
      let app = try fixture.owner.session(for: Self.app)
      let before = try store.head().position
      let calls = fixture.calls(app)
      for (name, call) in calls {
        do {
          try call()
          // `refresh` answers "refetch" instead of throwing, as EventKit's does.
          if name != "refresh" { Issue.record("\(name) was allowed with \(status)") }
        } catch StoreError.access(.accessDenied(let client, let service, let seen, _)) {
          #expect(client == Self.app && service == .contacts && seen == status, "\(name)")
        } catch {
          Issue.record("\(name) failed otherwise: \(error)")
        }
      }
      // `refresh` is refused too (its read), and answers "refetch".
      let counted = try countedRefusals(store, client: Self.app, service: .contacts, since: before)
      #expect(counted == calls.count, "every refused call is counted: \(counted) of \(calls.count)")
      #expect(try fixture.owner.contactStore.contacts().map(\.id) == [fixture.contact.id], "nothing was written")
      #expect(try fixture.owner.contactStore.groups().map(\.id) == [fixture.group.id])
      #expect(try fixture.owner.contactStore.contacts(matching: .name("mallory")).isEmpty)
    }
  }

  @Test func thePersonIsAskedOnceAndFullAccessReadsAndWrites() throws {
    try withStore { store, _ in
      let fixture = try Fixture(store)
      let app = try fixture.owner.session(for: Self.app)
      let prompter = ScriptedPrompter(.allow)
      #expect(try app.requestFullAccess(to: .contacts, prompter: prompter) == .fullAccess)
      #expect(prompter.asked.map(\.usageDescription) == ["Finds your friends."])
      #expect(try app.contactStore.contacts(matching: .name("lee")).map(\.id) == [fixture.contact.id])
      let bo = try app.contactStore.save(Contact(givenName: "Bo"))
      #expect(try store.record(at: bo.version).principal == .client(Self.app))
      try app.contactStore.addMember(bo.id, to: fixture.group.id)
      #expect(try fixture.owner.contactStore.contacts(matching: .group(fixture.group.id)).count == 2)
      // The person turns it off in settings: the session ends.
      try fixture.owner.privacySettings().setAccess(.denied, for: Self.app, service: .contacts)
      #expect(throws: StoreError.self) { try app.contactStore.contacts() }
    }
  }

  @Test func anAppWithoutAUsageDescriptionForContactsIsDeniedWithoutAPrompt() throws {
    try withStore { store, _ in
      let owner = EventStore(store: store)
      try owner.register(Client(id: "com.example.silent", name: "Silent", usageDescriptions: [:]))
      let app = try owner.session(for: "com.example.silent")
      let prompter = ScriptedPrompter(.allow)
      #expect(throws: StoreError.self) { try app.requestFullAccess(to: .contacts, prompter: prompter) }
      #expect(prompter.asked.isEmpty)
      #expect(try app.authorizationStatus(for: .contacts) == .denied)
      #expect(throws: StoreError.self) { try app.contactStore.contacts() }
    }
  }

  @Test func anAppBuiltForIOS5IsAskedOnItsFirstUseOfContacts() throws {
    try withStore { store, _ in
      let fixture = try Fixture(store)
      var old = Client(id: "com.example.old", name: "Old Book", usageDescriptions: [.contacts: "Lists friends."])
      old.sdk = 5
      try fixture.owner.register(old)
      let prompter = ScriptedPrompter(.allow)
      let app = try fixture.owner.session(for: "com.example.old", prompter: prompter)
      #expect(try app.contactStore.contacts().map(\.id) == [fixture.contact.id])
      #expect(prompter.asked.count == 1)
      #expect(try app.authorizationStatus(for: .contacts) == .fullAccess)
    }
  }
}
