import Kalends
import Testing

/// Address books as contacts containers (Contacts' `CNContainer`): each a collection of its own
/// with its own names, `UID`s, sync and stamp; removed whole; seen by apps as on iOS.
@Suite("Contacts: address books as containers")
struct ContactContainerTests {
  static let app = "com.example.cards"

  @Test func eachBookKeepsItsOwnNamesUIDsSyncAndStamp() throws {
    try withStore { store, _ in
      let owner = EventStore(store: store)
      #expect(try owner.contactStore.contactContainers().map(\.id) == [ContactContainer.localID])
      let friends = try owner.contactStore.save(ContactContainer(title: "Friends", resourceName: "friends"))
      #expect(friends.creator == nil && friends.creationDate != nil && friends.version != .none)
      #expect(try owner.contactStore.contactContainers().map(\.title) == ["Contacts", "Friends"])
      #expect(try owner.contactStore.contactContainer(named: "friends")?.id == friends.id)
      #expect(try owner.contactStore.contactContainer(named: friends.id.description)?.id == friends.id)
      #expect(try owner.contactStore.contactContainer(named: "contacts")?.isLocal == true)

      let start = try store.head().position
      // One name and one UID in each book: two cards, neither hiding the other.
      var local = Contact(givenName: "Ann", familyName: "Local")
      local.externalID = "same-uid"
      var there = Contact(givenName: "Ann", familyName: "Friend")
      there.externalID = "same-uid"
      #expect(try owner.contactStore.putContact(local, named: "ann").created)
      #expect(try owner.contactStore.putContact(there, named: "ann", in: friends.id).created)
      #expect(try owner.contactStore.contact(named: "ann")?.familyName == "Local")
      #expect(try owner.contactStore.contact(named: "ann", in: friends.id)?.familyName == "Friend")
      #expect(try owner.contactStore.contact(named: "ann", in: friends.id)?.containerID == friends.id)
      #expect(try owner.contactStore.addressObjects(in: friends.id).count == 1)
      #expect(try owner.contactStore.addressObjects().count == 1)

      // A group of one book holds only that book's contacts.
      let group = try owner.contactStore.save(ContactGroup(name: "Local people"))
      var wrong = try #require(try owner.contactStore.contact(named: "ann", in: friends.id))
      wrong.groupIDs = [group.id]
      #expect(throws: StoreError.contact(.groupNotFound(group.id))) { try owner.contactStore.save(wrong) }

      // A contact stays in its book whatever its copy says.
      var moved = try #require(try owner.contactStore.contact(named: "ann"))
      moved.containerID = friends.id
      moved.note = "moved?"
      let saved = try owner.contactStore.save(moved)
      #expect(saved.containerID == ContactContainer.localID)

      // Sync per book: each hears only of its own cards.
      let localChanges = try owner.contactStore.contactChanges(after: start)
      let friendChanges = try owner.contactStore.contactChanges(after: start, in: friends.id)
      #expect(localChanges.contacts.map(\.familyName) == ["Local"])
      #expect(friendChanges.contacts.map(\.familyName) == ["Friend"])
      #expect(try owner.contactStore.contactsStamp(in: friends.id).items == 1)
      #expect(try owner.contactStore.contactsStamp().items == 2)  // Ann and the group

      // A projection rebuilt from the log answers alike.
      _ = try store.rebuildProjections()
      #expect(try store.verifyProjections().isConsistent)
      #expect(try owner.contactStore.contact(named: "ann", in: friends.id)?.familyName == "Friend")
    }
  }

  @Test func aBookIsRemovedWholeInOneTransactionAndTheLocalOneStays() throws {
    try withStore { store, _ in
      let owner = EventStore(store: store)
      let work = try owner.contactStore.save(ContactContainer(title: "Work", resourceName: "work"))
      var ada = Contact(givenName: "Ada")
      ada.containerID = work.id
      ada = try owner.contactStore.save(ada)
      var team = ContactGroup(name: "Team")
      team.containerID = work.id
      team = try owner.contactStore.save(team)
      let kept = try owner.contactStore.save(Contact(givenName: "Kept"))
      let since = try store.head().position

      #expect(throws: StoreError.contact(.localContainerKept)) {
        try owner.contactStore.remove(
          try #require(try owner.contactStore.contactContainer(withID: ContactContainer.localID)))
      }
      try owner.contactStore.remove(try #require(try owner.contactStore.contactContainer(withID: work.id)))
      let records = try store.records(from: since.next, limit: 10).map(\.header.kind)
      #expect(records == [.contactRemoved, .groupRemoved, .addressBookRemoved])
      #expect(try owner.contactStore.contact(withID: ada.id) == nil)
      #expect(try owner.contactStore.group(withID: team.id) == nil)
      #expect(try owner.contactStore.contact(withID: kept.id) != nil)
      #expect(try owner.contactStore.contactContainers().map(\.id) == [ContactContainer.localID])
      #expect(try owner.contactStore.contactContainer(named: "work") == nil)
      // Nothing is added to a removed book, and its name is free again.
      var late = Contact(givenName: "Late")
      late.containerID = work.id
      let head = try store.head().position
      #expect(throws: StoreError.contact(.containerNotFound(work.id))) { try owner.contactStore.save(late) }
      #expect(try store.head().position == head)
      #expect(
        try owner.contactStore.save(ContactContainer(title: "Work again", resourceName: "work")).resourceName == "work")
    }
  }

  @Test func badNamesAndTitlesAreRefusedAndWriteNothing() throws {
    try withStore { store, _ in
      let owner = EventStore(store: store)
      _ = try owner.contactStore.save(ContactContainer(title: "Friends", resourceName: "friends"))
      let head = try store.head().position
      for name in ["friends", "contacts", "a/b", "", ObjectID.random().description] {
        #expect(throws: StoreError.contact(.containerNameInUse(name))) {
          try owner.contactStore.save(ContactContainer(title: "X", resourceName: name))
        }
      }
      #expect(throws: StoreError.self) { try owner.contactStore.save(ContactContainer(title: "")) }
      #expect(throws: StoreError.self) { try owner.contactStore.save(ContactContainer(title: "bad\u{0}title")) }
      var crowded = ContactContainer(title: "Crowded")
      crowded.clientProperties = Dictionary(uniqueKeysWithValues: (0..<65).map { ("{urn:x}p\($0)", "v") })
      #expect(throws: StoreError.self) { try owner.contactStore.save(crowded) }
      #expect(try store.head().position == head)
    }
  }

  @Test func appsSeeBooksAsOnIOSAndALimitedOneMakesNoneAndIsRecorded() throws {
    try withStore { store, _ in
      let owner = EventStore(store: store)
      try owner.register(Client(id: Self.app, name: "Cards", usageDescriptions: [.contacts: "Your friends."]))
      let secret = try owner.contactStore.save(ContactContainer(title: "Therapy clients", resourceName: "therapy"))
      let friends = try owner.contactStore.save(ContactContainer(title: "Friends", resourceName: "friends"))
      var bea = Contact(givenName: "Bea")
      bea.containerID = friends.id
      bea = try owner.contactStore.save(bea)
      var hidden = Contact(givenName: "Hidden")
      hidden.containerID = secret.id
      hidden = try owner.contactStore.save(hidden)

      // Full access: every book, and it may make one (recorded as made by it).
      try owner.privacySettings().setAccess(.fullAccess, for: Self.app, service: .contacts)
      let app = try owner.session(for: Self.app)
      #expect(Set(try app.contactStore.contactContainers().map(\.title)) == ["Contacts", "Therapy clients", "Friends"])
      let made = try app.contactStore.save(ContactContainer(title: "App book", resourceName: "app-book"))
      #expect(made.creator == Self.app)
      #expect(try store.lastRecords(1).first?.header.principal == .client(Self.app))

      // Limited to Bea: the local book, Bea's, and the one it made; never the therapy book.
      try owner.privacySettings().setLimitedAccess(for: Self.app, contacts: [bea.id])
      let limited = try owner.session(for: Self.app)
      #expect(Set(try limited.contactStore.contactContainers().map(\.title)) == ["Contacts", "Friends", "App book"])
      #expect(try limited.contactStore.contactContainer(named: "therapy") == nil)
      #expect(try limited.contactStore.contactContainer(withID: secret.id) == nil)
      #expect(try limited.contactStore.addressObjects(in: friends.id).map(\.name) == [bea.externalID])
      #expect(throws: StoreError.self) { try limited.contactStore.addressObjects(in: secret.id) }
      // It may not add to a book it does not see, nor make one; each refusal is recorded.
      var sneaky = Contact(givenName: "Sneaky")
      sneaky.containerID = secret.id
      let head = try store.head().position
      #expect(throws: StoreError.contact(.containerNotFound(secret.id))) { try limited.contactStore.save(sneaky) }
      #expect(try store.head().position == head)
      #expect(throws: StoreError.self) { try limited.contactStore.save(ContactContainer(title: "Mine")) }
      #expect(try store.lastRecords(1).first?.header.kind == .accessAttemptRefused)
      #expect(throws: StoreError.self) { try limited.contactStore.remove(friends) }
      #expect(try owner.contactStore.contactContainer(withID: friends.id) != nil)
    }
  }
}
