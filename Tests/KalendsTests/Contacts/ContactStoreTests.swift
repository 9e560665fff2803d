import Foundation
import Kalends
import Testing

@Suite("Contacts: the book, its versions and its search index")
struct ContactStoreTests {
  @Test func aSavedContactReadsBackWithEveryField() throws {
    try withStore { store, _ in
      let owner = EventStore(store: store)
      let group = try owner.contactStore.save(ContactGroup(name: "Friends"))
      let saved = try owner.contactStore.save(ContactFixture.rich(groups: [group.id]))
      let read = try #require(try owner.contactStore.contact(withID: saved.id))
      #expect(read == saved)
      #expect(read.version == (try store.head().position))
      #expect(read.creationDate != nil && read.lastModifiedDate == read.creationDate)
      #expect(read.displayName == "Dr. José Maria Ørsted Jr.")
      let record = try store.record(at: saved.version)
      #expect(record.kind == .contactSaved && record.principal == .person)
    }
  }

  @Test func aStaleCopyIsRefusedAndARemovedContactCannotBeSavedAgain() throws {
    try withStore { store, _ in
      let owner = EventStore(store: store)
      let first = try owner.contactStore.save(Contact(givenName: "Ann"))
      var newer = first
      newer.familyName = "Lee"
      newer = try owner.contactStore.save(newer)
      var stale = first
      stale.nickname = "A"
      let head = try store.head().position
      #expect(
        throws: StoreError.contact(.changedSinceFetched(first.id, fetched: first.version, current: newer.version))
      ) {
        try owner.contactStore.save(stale)
      }
      #expect(try store.head().position == head, "a refused save writes nothing")
      let forced = try owner.contactStore.save(stale, overwrite: true)
      #expect(forced.familyName == nil && forced.nickname == "A")
      try owner.contactStore.remove(forced)
      #expect(try owner.contactStore.contact(withID: first.id) == nil)
      #expect(throws: StoreError.contact(.removed(first.id, at: try store.head().position))) {
        try owner.contactStore.save(forced, overwrite: true)
      }
    }
  }

  @Test func namesAreFoundByAPrefixOfEachWordWithoutCaseOrAccents() throws {
    try withStore { store, _ in
      let owner = EventStore(store: store)
      let jose = try owner.contactStore.save(ContactFixture.rich())
      let joanna = try owner.contactStore.save(Contact(givenName: "Joanna", familyName: "Smith"))
      var company = Contact(kind: .organization)
      company.organizationName = "Łódź Gardens"
      company = try owner.contactStore.save(company)
      func names(_ search: ContactSearch) throws -> [ObjectID] {
        try owner.contactStore.contacts(matching: search).map(\.id)
      }
      #expect(try Set(names(.name("jo"))) == [jose.id, joanna.id])
      #expect(try names(.name("JOSE")) == [jose.id])
      #expect(try names(.name("orst")) == [jose.id], "ø is read as o")
      #expect(try names(.name("jo sm")) == [joanna.id], "every word must match")
      #expect(try names(.name("pepe")) == [jose.id], "nicknames are names")
      #expect(try names(.name("lodz")) == [company.id], "organizations are names")
      #expect(try names(.name("  ")) == [])
      #expect(try names(.emailAddress("JOSE@EX")) == [jose.id])
      #expect(try names(.emailAddress("example")) == [])
      #expect(try names(.phoneNumber("+1 555 010")) == [jose.id])
      #expect(try names(.phoneNumber("5551")) == [jose.id])
      #expect(try names(.phoneNumber("9")) == [])
      #expect(
        try owner.contactStore.contacts().map(\.id) == [company.id, jose.id, joanna.id],
        "by family name, then given name")
    }
  }

  /// Phone numbers are found as written, and without their country code or trunk prefix: the
  /// person types a number as they know it, not as the card spells it.
  @Test(arguments: [
    ("555", ["nanp"]), ("+1 555", ["nanp"]), ("1 (555) 010", ["nanp"]), ("020 7946", ["london", "londonPlus"]),
    ("+44 20 7946", ["london", "londonPlus"]), ("2079", ["london", "londonPlus"]),
    ("0044 20", ["london", "londonPlus"]),
    ("161", ["manchester"]), ("+44 161", ["manchester"]), ("0161 496", ["manchester"]), ("+7 495", ["moscow"]),
    ("495", ["moscow"]), ("+", []), ("+44", ["londonPlus", "manchester"]), ("9", []), ("+353 1", ["dublin"]),
    ("01 234", ["dublin"]),
  ])
  func phoneNumbersAreFoundWithOrWithoutCountryCodeAndTrunkPrefix(search: String, expected: [String]) throws {
    try withStore { store, _ in
      let owner = EventStore(store: store)
      var ids: [ObjectID: String] = [:]
      for (name, number) in [
        ("nanp", "+1 (555) 010-2000"), ("london", "020 7946 0000"), ("londonPlus", "+44 20 7946 0001"),
        ("manchester", "0044 161 496 0000"), ("moscow", "+7 495 123-45-67"), ("dublin", "+353 1 234 5678"),
      ] {
        var contact = Contact(givenName: name)
        contact.phoneNumbers = [LabeledValue(label: "work", value: number)]
        ids[try owner.contactStore.save(contact).id] = name
      }
      let found = try owner.contactStore.contacts(matching: .phoneNumber(search)).compactMap { ids[$0.id] }
      #expect(found.sorted() == expected.sorted(), "\(search)")
      #expect(try store.verifyProjections().isConsistent)
    }
  }

  @Test func aChangeReplacesTheIndexedWordsAndARemovalDropsThem() throws {
    try withStore { store, _ in
      let owner = EventStore(store: store)
      var ann = try owner.contactStore.save(Contact(givenName: "Ann", familyName: "Lee"))
      ann.familyName = "Park"
      ann = try owner.contactStore.save(ann)
      #expect(try owner.contactStore.contacts(matching: .name("lee")).isEmpty)
      #expect(try owner.contactStore.contacts(matching: .name("par")).map(\.id) == [ann.id])
      try owner.contactStore.remove(ann)
      #expect(try owner.contactStore.contacts(matching: .name("ann")).isEmpty)
      #expect(try owner.contactStore.contacts().isEmpty)
    }
  }

  @Test func groupsHoldTheirMembersUntilTheyAreRemoved() throws {
    try withStore { store, _ in
      let owner = EventStore(store: store)
      let friends = try owner.contactStore.save(ContactGroup(name: "Friends"))
      let work = try owner.contactStore.save(ContactGroup(name: "Work"))
      let ann = try owner.contactStore.save(Contact(givenName: "Ann"))
      let bob = try owner.contactStore.save(Contact(givenName: "Bob"))
      try owner.contactStore.addMember(ann.id, to: friends.id)
      try owner.contactStore.addMember(bob.id, to: friends.id)
      try owner.contactStore.addMember(bob.id, to: work.id)
      let head = try store.head().position
      try owner.contactStore.addMember(bob.id, to: work.id)
      #expect(try store.head().position == head, "adding a member twice writes nothing")
      #expect(try owner.contactStore.contacts(matching: .group(friends.id)).map(\.givenName) == ["Ann", "Bob"])
      try owner.contactStore.removeMember(ann.id, from: friends.id)
      #expect(try owner.contactStore.contacts(matching: .group(friends.id)).map(\.givenName) == ["Bob"])
      try owner.contactStore.remove(try #require(try owner.contactStore.group(withID: friends.id)))
      #expect(try owner.contactStore.groups().map(\.name) == ["Work"])
      #expect(try owner.contactStore.contact(withID: bob.id)?.groupIDs == [work.id], "a removed group is left out")
      #expect(throws: StoreError.contact(.groupNotFound(friends.id))) {
        try owner.contactStore.contacts(matching: .group(friends.id))
      }
      var stray = Contact(givenName: "Cy")
      stray.groupIDs = [ObjectID.random()]
      #expect(throws: StoreError.self) { try owner.contactStore.save(stray) }
    }
  }

  @Test func badTextIsRefusedWithATypedErrorAndWritesNothing() throws {
    try withStore { store, _ in
      let owner = EventStore(store: store)
      let head = try store.head().position
      var bad = Contact(givenName: "Ann\u{0}")
      #expect(throws: StoreError.self) { try owner.contactStore.save(bad) }
      bad = Contact(givenName: "Ann")
      bad.emailAddresses = [LabeledValue(label: "x\u{7}", value: "a@example.com")]
      #expect(
        throws: StoreError.contact(
          .invalidField(field: "a label", reason: "holds the control character U+0007"))
      ) { try owner.contactStore.save(bad) }
      bad = Contact(givenName: "Ann")
      bad.externalID = ""
      #expect(throws: StoreError.contact(.invalidField(field: "the external identifier", reason: "is empty"))) {
        try owner.contactStore.save(bad)
      }
      #expect(throws: StoreError.self) { try owner.contactStore.save(ContactGroup(name: "")) }
      #expect(try store.head().position == head)
    }
  }

  @Test func refreshKeepsLocalEditsAndReportsARemoval() throws {
    try withStore { store, _ in
      let owner = EventStore(store: store)
      var mine = try owner.contactStore.save(Contact(givenName: "Ann", familyName: "Lee"))
      var theirs = mine
      theirs.jobTitle = "Pilot"
      theirs = try owner.contactStore.save(theirs)
      mine.nickname = "Annie"
      #expect(try owner.contactStore.refresh(&mine))
      #expect(mine.jobTitle == "Pilot" && mine.nickname == "Annie" && mine.version == theirs.version)
      try owner.contactStore.remove(theirs)
      #expect(try owner.contactStore.refresh(&mine) == false)
    }
  }

  @Test func changeNoticesNameContactsAndGroupsWithWhatHappenedToThem() async throws {
    try await withStore { store, _ in
      let owner = EventStore(store: store)
      let start = try store.head().position
      let group = try owner.contactStore.save(ContactGroup(name: "Club"))
      var ann = try owner.contactStore.save(Contact(givenName: "Ann"))
      ann.nickname = "A"
      ann = try owner.contactStore.save(ann)
      let bob = try owner.contactStore.save(Contact(givenName: "Bob"))
      try owner.contactStore.remove(bob)
      try owner.contactStore.remove(group)
      let heard = try await lastHeard(owner, from: start.next, through: try store.head().position)
      #expect(heard[.contact(ann.id)] == .added, "added, then changed: still new to the subscriber")
      #expect(heard[.contact(bob.id)] == .removed)
      #expect(heard[.group(group.id)] == .removed)
      #expect(heard.count == 3)
      var fetched = try #require(try owner.contactStore.contact(withID: ann.id))
      #expect(try owner.contactStore.refresh(&fetched) && fetched.nickname == "A")
    }
  }

  @Test func theProjectionEqualsARebuildAfterChangesRemovalsAndAnErasure() throws {
    try withStore { store, _ in
      let owner = EventStore(store: store)
      let group = try owner.contactStore.save(ContactGroup(name: "Team"))
      var contacts: [Contact] = []
      for index in 0..<30 {
        var contact = Contact(givenName: "Person\(index)", familyName: index.isMultiple(of: 2) ? "Even" : "Odd")
        contact.emailAddresses = [LabeledValue(value: "p\(index)@example.com")]
        if index.isMultiple(of: 3) { contact.groupIDs = [group.id] }
        contacts.append(try owner.contactStore.save(contact))
      }
      for index in stride(from: 0, to: 30, by: 4) {
        var changed = contacts[index]
        changed.familyName = "Changed"
        contacts[index] = try owner.contactStore.save(changed)
      }
      for index in stride(from: 1, to: 30, by: 5) { try owner.contactStore.remove(contacts[index]) }
      try owner.privacySettings().erase(.contact(contacts[2].id), reason: "asked to be forgotten")
      try owner.contactStore.remove(group)
      #expect(try store.verifyProjections().isConsistent)
      let before = try store.projectionDigests()
      try store.rebuildProjections()
      #expect(try store.projectionDigests() == before)
      // Person2 was erased, Person21 and Person26 removed.
      let found = try owner.contactStore.contacts(matching: .name("person2")).compactMap(\.givenName)
      #expect(Set(found) == Set([20, 22, 23, 24, 25, 27, 28, 29].map { "Person\($0)" }))
    }
  }

  @Test func erasingAContactLeavesNoneOfItsTextInTheLogAndEveryCheckPasses() throws {
    try withStore { store, _ in
      let owner = EventStore(store: store)
      let saved = try owner.contactStore.save(ContactFixture.rich())
      var changed = saved
      changed.jobTitle = "Chief Engineer"
      try owner.contactStore.save(changed)
      let erasure = try owner.privacySettings().erase(.contact(saved.id), reason: "request")
      #expect(erasure.erasedPositions.count == 2 && erasure.removal != nil)
      let head = try store.head().position.rawValue
      for position in 1...head {
        let bytes = try store.environmentValue(at: position)
        for secret in ["Ørsted", "jose@example.com", "Springfield", "Chief Engineer"] {
          #expect(!bytes.contains(subsequence: Array(secret.utf8)), "\(secret) is still in record \(position)")
        }
      }
      #expect(try store.verify().isIntact)
      #expect(try store.verifyProjections().isConsistent)
      #expect(try owner.contactStore.contacts(matching: .name("jose")).isEmpty)
      #expect(try store.record(at: saved.version).header.content == .erased)
    }
  }
}

extension Array where Element == UInt8 {
  /// Whether `needle` occurs in it.
  func contains(subsequence needle: [UInt8]) -> Bool {
    guard !needle.isEmpty, count >= needle.count else { return false }
    return (0...(count - needle.count)).contains { start in self[start..<(start + needle.count)].elementsEqual(needle) }
  }
}
