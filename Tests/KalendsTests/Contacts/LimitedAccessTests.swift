import Kalends
import Testing

@Suite("Contacts: limited access and the picker, as iOS 18")
struct LimitedAccessTests {
  static let app = ContactAccessTests.app

  /// A store with three contacts in a group and the address-book app registered.
  struct Fixture {
    let store: Store
    let owner: EventStore
    let ann: Contact
    let bob: Contact
    let cy: Contact
    let group: ContactGroup

    init(_ store: Store) throws {
      self.store = store
      owner = EventStore(store: store)
      group = try owner.contactStore.save(ContactGroup(name: "Family"))
      var ann = Contact(givenName: "Ann", familyName: "Lee")
      ann.groupIDs = [group.id]
      self.ann = try owner.contactStore.save(ann)
      bob = try owner.contactStore.save(Contact(givenName: "Bob", familyName: "Lee"))
      cy = try owner.contactStore.save(Contact(givenName: "Cy", familyName: "Lee"))
      try owner.register(
        Client(id: LimitedAccessTests.app, name: "Address Book", usageDescriptions: [.contacts: "Finds your friends."]))
    }
  }

  /// By the start of an id, a limited app finds only its chosen contacts; nothing tells it of the
  /// others.
  @Test func aPrefixFindsOnlyTheChosenContacts() throws {
    try withStore { store, _ in
      let fixture = try Fixture(store)
      for contact in [fixture.ann, fixture.bob] {
        let prefix = String(contact.id.description.prefix(8))
        #expect(try fixture.owner.contactStore.contactIDs(beginningWith: prefix.lowercased()) == [contact.id])
      }
      #expect(try fixture.owner.contactStore.contactIDs(beginningWith: "zz").isEmpty)
      try fixture.owner.privacySettings().setLimitedAccess(for: Self.app, contacts: [fixture.ann.id])
      let limited = try fixture.owner.session(for: Self.app)
      #expect(
        try limited.contactStore.contactIDs(beginningWith: String(fixture.ann.id.description.prefix(6))) == [
          fixture.ann.id
        ])
      #expect(try limited.contactStore.contactIDs(beginningWith: String(fixture.bob.id.description.prefix(6))).isEmpty)
    }
  }

  @Test func thePersonChoosesContactsAtThePromptAndTheAppSeesOnlyThose() throws {
    try withStore { store, _ in
      let fixture = try Fixture(store)
      let app = try fixture.owner.session(for: Self.app)
      let prompter = FixedAnswerPrompter(.limited, contacts: [fixture.ann.id, fixture.bob.id])
      #expect(try app.requestFullAccess(to: .contacts, prompter: prompter) == .limited)
      #expect(try app.authorizationStatus(for: .contacts) == .limited)
      let records = try store.lastRecords(3)
      #expect(records.map(\.kind) == [.accessRequested, .accessDecided, .accessScopeChanged])
      #expect(records[2].principal == .person)

      #expect(Set(try app.contactStore.contacts().map(\.id)) == [fixture.ann.id, fixture.bob.id])
      #expect(try app.contactStore.contacts(matching: .name("cy")).isEmpty)
      #expect(try app.contactStore.contacts(matching: .name("lee")).count == 2)
      #expect(try app.contactStore.contact(withID: fixture.cy.id) == nil)
      #expect(try app.contactStore.contact(withID: fixture.ann.id)?.groupIDs == [], "groups are not shown")
      #expect(try app.contactStore.groups().isEmpty)
      #expect(try app.contactStore.group(withID: fixture.group.id) == nil)
      #expect(throws: StoreError.contact(.groupNotFound(fixture.group.id))) {
        try app.contactStore.contacts(matching: .group(fixture.group.id))
      }
      let exported = try app.contactStore.exportVCards()
      #expect(exported.contains("Ann") && exported.contains("Bob") && !exported.contains("Cy"))
      #expect(!exported.contains("Family"))
    }
  }

  @Test func aChoiceNamingAContactThatIsGoneKeepsTheRest() throws {
    try withStore { store, _ in
      let fixture = try Fixture(store)
      let app = try fixture.owner.session(for: Self.app)
      let prompter = FixedAnswerPrompter(.limited, contacts: [fixture.bob.id, ObjectID.random()])
      #expect(try app.requestFullAccess(to: .contacts, prompter: prompter) == .limited)
      #expect(try fixture.owner.privacySettings().chosenContacts(for: Self.app) == [fixture.bob.id])
    }
  }

  @Test func aLimitedAppChangesOnlyItsContactsKeepsTheirGroupsAndItsNewContactsJoinItsSet() throws {
    try withStore { store, _ in
      let fixture = try Fixture(store)
      try fixture.owner.privacySettings().setLimitedAccess(for: Self.app, contacts: [fixture.ann.id])
      let app = try fixture.owner.session(for: Self.app)
      var ann = try #require(try app.contactStore.contact(withID: fixture.ann.id))
      ann.nickname = "Annie"
      ann = try app.contactStore.save(ann)
      #expect(
        try fixture.owner.contactStore.contact(withID: ann.id)?.groupIDs == [fixture.group.id], "memberships stay")

      let before = try store.head().position
      var cy = fixture.cy
      cy.nickname = "stolen"
      #expect(
        throws: StoreError.access(
          .accessDenied(
            client: Self.app, service: .contacts, status: .limited, operation: "change a contact it may not use"))
      ) { try app.contactStore.save(cy) }
      #expect(throws: StoreError.self) { try app.contactStore.remove(fixture.bob) }
      #expect(throws: StoreError.self) { try app.contactStore.save(ContactGroup(name: "Mine")) }
      #expect(throws: StoreError.self) { try app.contactStore.addMember(fixture.ann.id, to: fixture.group.id) }
      #expect(try fixture.owner.contactStore.contact(withID: fixture.cy.id)?.nickname == nil)
      #expect(try countedRefusals(store, client: Self.app, since: before) == 4, "each refusal is recorded")

      let dee = try app.contactStore.save(Contact(givenName: "Dee"))
      #expect(
        Set(try app.contactStore.contacts().map(\.id)) == [fixture.ann.id, dee.id], "what it creates joins its set")
      // The audit agrees: what its access covers includes what it created.
      let audit = PrivacyAudit(store: store)
      #expect(try audit.whoCan(.contacts, object: dee.id).map(\.client) == [Self.app])
      #expect(try audit.whoCan(.contacts, object: fixture.bob.id).isEmpty)
      let state = try #require(try audit.state().first { $0.client == Self.app && $0.service == .contacts })
      #expect(state.chosen == [fixture.ann.id, dee.id].sorted())
      let imported = try app.contactStore.importVCards(
        Array("BEGIN:VCARD\r\nVERSION:4.0\r\nUID:eve\r\nN:Eve;;;;\r\nFN:Eve\r\nEND:VCARD\r\n".utf8))
      #expect(imported.contactsCreated == 1)
      #expect(try app.contactStore.contacts().count == 3)
      #expect(throws: StoreError.self) {
        try app.contactStore.importVCards(
          Array("BEGIN:VCARD\r\nVERSION:4.0\r\nKIND:group\r\nFN:G\r\nEND:VCARD\r\n".utf8))
      }
      try app.contactStore.remove(dee)
      let left = try app.contactStore.contacts()
      #expect(left.count == 2 && left.contains { $0.id == fixture.ann.id }, "Ann and Eve are left")
    }
  }

  @Test func thePersonChangesTheChoiceInSettingsAndAResetClearsIt() throws {
    try withStore { store, _ in
      let fixture = try Fixture(store)
      try fixture.owner.privacySettings().setLimitedAccess(for: Self.app, contacts: [fixture.ann.id, fixture.bob.id])
      let head = try store.head().position
      try fixture.owner.privacySettings().setLimitedAccess(for: Self.app, contacts: [fixture.ann.id, fixture.bob.id])
      #expect(try store.head().position == head, "the same choice writes nothing")
      try fixture.owner.privacySettings().setLimitedAccess(for: Self.app, contacts: [fixture.cy.id])
      let change = try #require(try PrivacyAudit(store: store).history(client: Self.app).last)
      #expect(change.kind == .accessScopeChanged && change.objects == [fixture.cy.id])
      #expect(Set(change.removedObjects) == [fixture.ann.id, fixture.bob.id])
      #expect(try fixture.owner.privacySettings().chosenContacts(for: Self.app) == [fixture.cy.id])
      let app = try fixture.owner.session(for: Self.app)
      #expect(try app.contactStore.contacts().map(\.id) == [fixture.cy.id])
      #expect(throws: StoreError.contact(.contactNotFound(fixture.group.id))) {
        try fixture.owner.privacySettings().setLimitedAccess(for: Self.app, contacts: [fixture.group.id])
      }
      try fixture.owner.privacySettings().resetAccess(client: Self.app, service: .contacts)
      #expect(try fixture.owner.privacySettings().chosenContacts(for: Self.app).isEmpty)
      #expect(try store.verifyProjections().isConsistent)
      let digests = try store.projectionDigests()
      try store.rebuildProjections()
      #expect(try store.projectionDigests() == digests)
    }
  }

  @Test func aLimitedAppHearsOnlyOfItsContacts() async throws {
    try await withStore { store, _ in
      let fixture = try Fixture(store)
      try fixture.owner.privacySettings().setLimitedAccess(for: Self.app, contacts: [fixture.ann.id])
      let app = try fixture.owner.session(for: Self.app)
      let start = try store.head().position
      var ann = fixture.ann
      ann.nickname = "A"
      try fixture.owner.contactStore.save(ann)
      var cy = fixture.cy
      cy.nickname = "C"
      try fixture.owner.contactStore.save(cy)
      try fixture.owner.contactStore.save(ContactGroup(name: "Work"))
      let head = try store.head().position
      let heard = try await heardChanges(app, from: start.next, through: head).map(\.object)
      #expect(heard == [.contact(fixture.ann.id)])
    }
  }

  @Test func thePickerHandsOneContactOnceWithoutGrantingAccess() throws {
    try withStore { store, _ in
      let fixture = try Fixture(store)
      let app = try fixture.owner.session(for: Self.app)
      let picked = try #require(try app.contactStore.pickContact(using: FixedContactPicker(fixture.bob.id)))
      #expect(picked.id == fixture.bob.id && picked.givenName == "Bob")
      let record = try #require(try store.lastRecords(1).first)
      #expect(record.kind == .contactPicked && record.principal == .person)
      #expect(try app.authorizationStatus(for: .contacts) == .notDetermined, "no access is granted")
      #expect(throws: StoreError.self) { try app.contactStore.contact(withID: fixture.bob.id) }
      let head = try store.head().position
      #expect(try app.contactStore.pickContact(using: FixedContactPicker(nil)) == nil)
      #expect(try store.head().position == head, "a cancelled picker records nothing")
      let entry = try #require(
        try PrivacyAudit(store: store).history(client: Self.app).last { $0.kind == .contactPicked })
      #expect(entry.objects == [fixture.bob.id] && entry.service == .contacts)
    }
  }
}
