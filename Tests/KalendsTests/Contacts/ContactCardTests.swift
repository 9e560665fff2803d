import Foundation
import Kalends
import Testing

/// Contacts as CardDAV stores them: one card per `UID` (``EventStore/putContact(_:named:condition:)``,
/// ``EventStore/removeContact(named:condition:)``, ``Contact/init(vCard:)``), under the name a client
/// gave it, and the formatted name a client chose kept as written.
@Suite("Contacts as address object resources")
struct ContactCardTests {
  static func card(_ uid: String, _ lines: String...) -> [UInt8] {
    Array(("BEGIN:VCARD\r\nVERSION:3.0\r\nUID:\(uid)\r\n" + lines.map { $0 + "\r\n" }.joined() + "END:VCARD\r\n").utf8)
  }

  @Test func aPutCreatesReplacesKeepsGroupsAndWritesNothingForTheSameCard() throws {
    try withStore { store, _ in
      let owner = EventStore(store: store)
      let family = try owner.contactStore.save(ContactGroup(name: "Family"))
      let first = try Contact(vCard: Self.card("ada", "N:Lovelace;Ada;;;", "EMAIL:ada@example.com"))
      let (created, isNew) = try owner.contactStore.putContact(first)
      #expect(isNew && created.familyName == "Lovelace")
      var grouped = created
      grouped.groupIDs = [family.id]
      _ = try owner.contactStore.save(grouped)
      let head = try store.head().position
      // The same card again writes nothing.
      #expect(try owner.contactStore.putContact(first).created == false)
      #expect(try store.head().position == head)
      // A changed card replaces the fields, keeps the identifier and the groups.
      let changed = try Contact(vCard: Self.card("ada", "N:Byron;Ada;;;"))
      let (replaced, _) = try owner.contactStore.putContact(changed)
      #expect(replaced.id == created.id && replaced.familyName == "Byron" && replaced.emailAddresses.isEmpty)
      #expect(try owner.contactStore.contact(uid: "ada")?.groupIDs == [family.id])
      // Conditions are checked against what is stored.
      #expect(throws: StoreError.calendar(.objectConditionFailed("ada"))) {
        try owner.contactStore.putContact(changed, condition: .absent)
      }
      #expect(throws: StoreError.calendar(.objectConditionFailed("ada"))) {
        try owner.contactStore.removeContact(named: "ada", condition: .present(matching: { $0 == head }))
      }
      try owner.contactStore.removeContact(named: "ada", condition: .present(matching: { $0 == replaced.version }))
      #expect(try owner.contactStore.contact(uid: "ada") == nil)
      #expect(throws: StoreError.calendar(.objectConditionFailed("ada"))) {
        try owner.contactStore.removeContact(named: "ada")
      }
    }
  }

  @Test func aClientsFormattedNameIsKeptUntilTheNameChanges() throws {
    try withStore { store, _ in
      let owner = EventStore(store: store)
      let card = try Contact(vCard: Self.card("alan", "N:Turing;Alan;;;", "FN:Dr. Alan Turing (Bletchley)"))
      let stored = try owner.contactStore.putContact(card).contact
      #expect(stored.vCard(.v3).contains("FN:Dr. Alan Turing (Bletchley)\r\n"))
      #expect(stored.vCard(.v4).components(separatedBy: "FN:").count == 2, "one FN")
      // A formatted name the parts make is not kept twice.
      let plain = try Contact(vCard: Self.card("grace", "N:Hopper;Grace;;;", "FN:Grace Hopper"))
      #expect(plain.additionalProperties.isEmpty)
      // Renamed through the API, the kept formatted name would name someone else: it goes.
      var renamed = stored
      renamed.givenName = "Alan M."
      let saved = try owner.contactStore.save(renamed)
      #expect(saved.vCard(.v3).contains("FN:Alan M. Turing\r\n"))
      #expect(!saved.vCard(.v3).contains("Bletchley"))
    }
  }

  @Test func aResourceHoldsOneCardOfAPerson() throws {
    #expect(throws: VCardError.self) { try Contact(vCard: Self.card("g", "KIND:group", "FN:Friends")) }
    #expect(throws: VCardError.self) {
      try Contact(vCard: Self.card("a", "FN:A") + Self.card("b", "FN:B"))
    }
    #expect(throws: VCardError.self) { try Contact(vCard: Array("BEGIN:VCARD\r\nVERSION:2.1\r\nEND:VCARD\r\n".utf8)) }
  }

  @Test func aLimitedSessionStoresAndSeesOnlyItsContacts() throws {
    try withStore { store, _ in
      let fixture = try LimitedAccessTests.Fixture(store)
      _ = try fixture.owner.privacySettings().setLimitedAccess(for: LimitedAccessTests.app, contacts: [fixture.ann.id])
      let app = try fixture.owner.session(for: LimitedAccessTests.app)
      #expect(try app.contactStore.contact(uid: fixture.bob.externalID) == nil)
      #expect(try app.contactStore.contact(uid: fixture.ann.externalID)?.givenName == "Ann")
      let made = try app.contactStore.putContact(try Contact(vCard: Self.card("new", "N:New;Nat;;;"))).contact
      #expect(try app.contactStore.contact(uid: "new")?.id == made.id)
      #expect(try app.contactStore.contactsStamp().items == 2)
      // The owner's address book holds the four contacts and the group's card.
      #expect(try fixture.owner.contactStore.contactsStamp().items == 5)
      #expect(throws: StoreError.calendar(.objectConditionFailed(fixture.bob.externalID))) {
        try app.contactStore.removeContact(named: fixture.bob.externalID)
      }
      #expect(try fixture.owner.contactStore.contact(uid: fixture.bob.externalID) != nil)
    }
  }

  @Test func aCardIsFoundByTheNameItWasStoredUnderAndItsUIDIsNotStoredTwice() throws {
    try withStore { store, _ in
      let owner = EventStore(store: store)
      let grace = try Contact(vCard: Self.card("grace@example.com", "N:Hopper;Grace;;;"))
      let (stored, created) = try owner.contactStore.putContact(grace, named: "5f0c-random")
      #expect(created && stored.resourceName == "5f0c-random")
      #expect(try owner.contactStore.contact(named: "5f0c-random")?.familyName == "Hopper")
      #expect(try owner.contactStore.contact(named: "grace@example.com") == nil)
      #expect(try owner.contactStore.contact(uid: "grace@example.com")?.id == stored.id)
      let head = try store.head().position
      #expect(throws: StoreError.calendar(.uidInUse(uid: "grace@example.com", name: "5f0c-random"))) {
        try owner.contactStore.putContact(grace, named: "another")
      }
      #expect(throws: StoreError.calendar(.uidInUse(uid: "grace@example.com", name: "5f0c-random"))) {
        try owner.contactStore.putContact(grace)
      }
      #expect(try store.head().position == head)
      // Replaced at its name it keeps its identifier and its name; a rebuild lists the same.
      let changed = try Contact(vCard: Self.card("grace@example.com", "N:Hopper;Grace Brewster;;;"))
      #expect(try owner.contactStore.putContact(changed, named: "5f0c-random").contact.id == stored.id)
      #expect(try store.verifyProjections().isConsistent)
      _ = try store.rebuildProjections()
      #expect(try owner.contactStore.contact(named: "5f0c-random")?.givenName == "Grace Brewster")
      try owner.contactStore.removeContact(named: "5f0c-random")
      #expect(
        try owner.contactStore.contact(named: "5f0c-random") == nil
          && owner.contactStore.contact(uid: "grace@example.com") == nil)
    }
  }

  @Test func anAddressBookSyncTellsWhatChangedAndWhatWasRemovedByName() throws {
    try withStore { store, _ in
      let owner = EventStore(store: store)
      try owner.contactStore.putContact(try Contact(vCard: Self.card("ada", "N:Lovelace;Ada;;;")))
      try owner.contactStore.putContact(
        try Contact(vCard: Self.card("grace@example.com", "N:Hopper;Grace;;;")), named: "g-name")
      let first = try owner.contactStore.contactChanges(after: nil)
      #expect(Set(first.contacts.map(\.externalID)) == ["ada", "grace@example.com"] && first.removed.isEmpty)
      #expect(try owner.contactStore.contactChanges(after: first.position).contacts.isEmpty)

      try owner.contactStore.putContact(try Contact(vCard: Self.card("ada", "N:Byron;Ada;;;")))
      try owner.contactStore.removeContact(named: "g-name")
      try owner.contactStore.putContact(try Contact(vCard: Self.card("alan", "N:Turing;Alan;;;")))
      let next = try owner.contactStore.contactChanges(after: first.position)
      #expect(next.contacts.map(\.familyName) == ["Byron", "Turing"] && next.removed == ["g-name"])
      #expect(next.position == (try store.head().position))
      // A limit stops before the change that would exceed it; the rest follows.
      let paged = try owner.contactStore.contactChanges(after: first.position, limit: 1)
      #expect(paged.isTruncated && paged.contacts.map(\.familyName) == ["Byron"])
      let rest = try owner.contactStore.contactChanges(after: paged.position)
      #expect(rest.removed == ["g-name"] && rest.contacts.map(\.familyName) == ["Turing"])
      // A rebuild keeps what names the removal; a position beyond the head asks for a full sync.
      _ = try store.rebuildProjections()
      #expect(try owner.contactStore.contactChanges(after: first.position).removed == ["g-name"])
      #expect(try store.verifyProjections().isConsistent)
      let beyond = LogPosition((try store.head().position).rawValue + 10)
      #expect(throws: StoreError.calendar(.changesUnavailable(after: beyond))) {
        try owner.contactStore.contactChanges(after: beyond)
      }
    }
  }
}
