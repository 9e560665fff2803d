import Foundation
import Kalends
import Testing

/// Groups as CardDAV stores them (``GroupCard``, ``EventStore/putGroup(_:named:condition:)``):
/// a client's group card becomes a group and saves of its members, in one transaction; the card
/// comes back as written; its entity version and the address book's sync follow membership.
@Suite("Groups as address object resources")
struct GroupCardTests {
  /// Apple's form (vCard 3.0) of a group card.
  static func appleGroup(_ uid: String, _ name: String, members: [String], _ extra: String...) -> [UInt8] {
    var text =
      "BEGIN:VCARD\r\nVERSION:3.0\r\nUID:\(uid)\r\nX-ADDRESSBOOKSERVER-KIND:group\r\nN:\(name)\r\nFN:\(name)\r\n"
    for member in members { text += "X-ADDRESSBOOKSERVER-MEMBER:urn:uuid:\(member)\r\n" }
    for line in extra { text += line + "\r\n" }
    return Array((text + "END:VCARD\r\n").utf8)
  }

  static func person(_ uid: String, _ family: String) throws -> Contact {
    try Contact(vCard: ContactCardTests.card(uid, "N:\(family);;;;"))
  }

  @Test func aGroupCardSetsItsMembersInOneTransactionAndComesBackAsWritten() throws {
    try withStore { store, _ in
      let owner = EventStore(store: store)
      let ada = try owner.contactStore.putContact(Self.person("ada", "Lovelace")).contact
      let alan = try owner.contactStore.putContact(Self.person("alan", "Turing")).contact
      let card = try GroupCard(
        vCard: Self.appleGroup("friends", "Friends", members: ["ada", "alan"], "X-MY-CLIENT;X-A=1:kept"))
      let before = try store.head().position
      let (stored, created) = try owner.contactStore.putGroup(card, named: "f-1")
      #expect(created && stored.name == "f-1" && stored.memberUIDs == ["ada", "alan"])
      // One group save and one save of each member, all in one commit.
      #expect(try store.head().position == LogPosition(before.rawValue + 3))
      #expect(try owner.contactStore.contact(withID: ada.id)?.groupIDs == [stored.group.id])
      #expect(
        try owner.contactStore.contacts(matching: .group(stored.group.id)).map(\.id).sorted()
          == [ada.id, alan.id].sorted())
      // Written back in both forms, with the property Kalends does not model.
      let v3 = try #require(try owner.contactStore.groupCard(named: "f-1")).vCard(.v3)
      #expect(v3.contains("X-ADDRESSBOOKSERVER-KIND:group\r\n") && v3.contains("X-MY-CLIENT;X-A=1:kept\r\n"))
      #expect(v3.contains("X-ADDRESSBOOKSERVER-MEMBER:urn:uuid:alan\r\n"))
      let v4 = stored.vCard(.v4)
      #expect(v4.contains("KIND:group\r\n") && v4.contains("MEMBER:urn:uuid:ada\r\n"))
      #expect(try GroupCard(vCard: Array(v4.utf8)).memberUIDs == ["ada", "alan"])

      // The same card again writes nothing; one member fewer is one save of that contact.
      let head = try store.head().position
      #expect(try owner.contactStore.putGroup(card, named: "f-1").created == false)
      #expect(try store.head().position == head)
      let smaller = try GroupCard(vCard: Self.appleGroup("friends", "Friends", members: ["alan"]))
      let (after, _) = try owner.contactStore.putGroup(smaller, named: "f-1")
      #expect(after.memberUIDs == ["alan"] && after.contentVersion != stored.contentVersion)
      #expect(try store.head().position.rawValue - head.rawValue == 2, "the group (its kept property went) and Ada")
      #expect(try owner.contactStore.contact(withID: ada.id)?.groupIDs == [])
      #expect(try store.verifyProjections().isConsistent)
    }
  }

  @Test func aCardNamingContactsNotYetStoredKeepsThemAndTheyJoinWhenTheyArrive() throws {
    try withStore { store, _ in
      let owner = EventStore(store: store)
      // DAVx5 and Apple may upload a group before its members.
      let (stored, _) = try owner.contactStore.putGroup(
        try GroupCard(vCard: Self.appleGroup("team", "Team", members: ["kay", "bo"])))
      #expect(stored.memberUIDs == ["bo", "kay"])
      let kay = try owner.contactStore.putContact(Self.person("kay", "Kay")).contact
      #expect(kay.groupIDs == [stored.group.id], "a contact the card named joins when it arrives")
      let now = try #require(try owner.contactStore.groupCard(named: "team"))
      #expect(
        now.memberUIDs == ["bo", "kay"] && now.contentVersion == stored.contentVersion, "the card reads the same")
      // Taken out through the API, it is no longer written as a member.
      _ = try owner.contactStore.removeMember(kay.id, from: stored.group.id)
      let left = try #require(try owner.contactStore.groupCard(named: "team"))
      #expect(left.memberUIDs == ["bo"] && left.contentVersion != now.contentVersion)
      _ = try store.rebuildProjections()
      #expect(try owner.contactStore.groupCard(named: "team") == left)
      #expect(try owner.contactStore.putContact(Self.person("bo", "Bo")).contact.groupIDs == [stored.group.id])
    }
  }

  @Test func conditionsNamesAndUIDsAreCheckedAndARefusalWritesNothing() throws {
    try withStore { store, _ in
      let owner = EventStore(store: store)
      let ada = try owner.contactStore.putContact(Self.person("ada", "Lovelace")).contact
      let (group, _) = try owner.contactStore.putGroup(try GroupCard(vCard: Self.appleGroup("g", "G", members: [])))
      let head = try store.head().position
      let stale = group.contentVersion
      _ = try owner.contactStore.addMember(ada.id, to: group.group.id)
      let moved = try store.head().position
      let card = try GroupCard(vCard: Self.appleGroup("g", "Renamed", members: []))
      #expect(throws: StoreError.calendar(.objectConditionFailed("g"))) {
        try owner.contactStore.putGroup(card, condition: .present(matching: { $0 == stale }))
      }
      #expect(throws: StoreError.calendar(.objectConditionFailed("g"))) {
        try owner.contactStore.removeGroup(named: "g", condition: .present(matching: { $0 == stale }))
      }
      #expect(throws: StoreError.calendar(.objectConditionFailed("g"))) {
        try owner.contactStore.putGroup(card, condition: .absent)
      }
      // A group with a contact's UID, a contact with a group's, a contact where a group is.
      #expect(throws: StoreError.calendar(.uidInUse(uid: "ada", name: "ada"))) {
        try owner.contactStore.putGroup(try GroupCard(vCard: Self.appleGroup("ada", "Ada", members: [])), named: "x")
      }
      #expect(throws: StoreError.calendar(.uidInUse(uid: "g", name: "g"))) {
        try owner.contactStore.putContact(Self.person("g", "G"), named: "y")
      }
      #expect(throws: StoreError.contact(.nameHeldByOtherKind(name: "g", holder: "a group"))) {
        try owner.contactStore.putContact(Self.person("other", "O"), named: "g")
      }
      #expect(throws: StoreError.contact(.nameHeldByOtherKind(name: "ada", holder: "a contact"))) {
        try owner.contactStore.putGroup(try GroupCard(vCard: Self.appleGroup("h", "H", members: [])), named: "ada")
      }
      #expect(throws: VCardError.self) { try GroupCard(vCard: ContactCardTests.card("p", "N:P;;;;")) }
      #expect(try store.head().position == moved && moved.rawValue == head.rawValue + 1)
      // The current version removes it; its member stays, outside it.
      let current = try #require(try owner.contactStore.groupCard(named: "g"))
      try owner.contactStore.removeGroup(named: "g", condition: .present(matching: { $0 == current.contentVersion }))
      #expect(
        try owner.contactStore.groupCard(named: "g") == nil
          && owner.contactStore.contact(withID: ada.id)?.groupIDs == [])
    }
  }

  @Test func theAddressBookSyncNamesGroupsWhoseMembersMayHaveChangedAndRemovedGroups() throws {
    try withStore { store, _ in
      let owner = EventStore(store: store)
      let ada = try owner.contactStore.putContact(Self.person("ada", "Lovelace")).contact
      try owner.contactStore.putGroup(
        try GroupCard(vCard: Self.appleGroup("friends", "Friends", members: ["ada"])), named: "f")
      try owner.contactStore.putGroup(try GroupCard(vCard: Self.appleGroup("work", "Work", members: [])))
      let first = try owner.contactStore.contactChanges(after: nil)
      #expect(first.contacts.map(\.externalID) == ["ada"] && first.groups.map(\.name) == ["f", "work"])
      #expect(
        try owner.contactStore.contactChanges(after: first.position)
          == ContactChanges(position: first.position, contacts: [], removed: []))
      // Ada leaves Friends through the API: a save of Ada, which names both groups; the client
      // finds Work's card unchanged by its version.
      _ = try owner.contactStore.removeMember(
        ada.id, from: try #require(try owner.contactStore.groupCard(named: "f")).group.id)
      let step = try owner.contactStore.contactChanges(after: first.position)
      #expect(step.contacts.map(\.externalID) == ["ada"] && Set(step.groups.map(\.name)) == ["f", "work"])
      #expect(step.groups.first { $0.name == "f" }?.memberUIDs == [])
      #expect(step.groups.first { $0.name == "work" }?.contentVersion == first.groups[1].contentVersion)
      try owner.contactStore.removeGroup(named: "f")
      let removal = try owner.contactStore.contactChanges(after: step.position)
      #expect(removal.removed == ["f"] && removal.groups.isEmpty && removal.contacts.isEmpty)
      // With a limit, a step of one: the first record is taken whole, the next waits.
      try owner.contactStore.putGroup(try GroupCard(vCard: Self.appleGroup("a", "A", members: [])))
      try owner.contactStore.putGroup(try GroupCard(vCard: Self.appleGroup("b", "B", members: [])))
      let limited = try owner.contactStore.contactChanges(after: removal.position, limit: 1)
      #expect(limited.groups.map(\.name) == ["a"] && limited.isTruncated)
      #expect(try owner.contactStore.contactChanges(after: limited.position, limit: 1).groups.map(\.name) == ["b"])
      // A first sync with a limit takes the oldest of both kinds.
      let oldest = try owner.contactStore.contactChanges(after: nil, limit: 2)
      #expect(
        oldest.isTruncated && oldest.contacts.map(\.externalID) == ["ada"] && oldest.groups.map(\.name) == ["work"])
    }
  }

  @Test func aLimitedSessionSeesNoGroupCardAndMayStoreNone() throws {
    try withStore { store, _ in
      let fixture = try LimitedAccessTests.Fixture(store)
      _ = try fixture.owner.privacySettings().setLimitedAccess(for: LimitedAccessTests.app, contacts: [fixture.ann.id])
      let app = try fixture.owner.session(for: LimitedAccessTests.app)
      let name = fixture.group.externalID
      #expect(try app.contactStore.groupCards().isEmpty && app.contactStore.groupCard(named: name) == nil)
      #expect(try app.contactStore.addressObjects().count == 1 && app.contactStore.addressObject(named: name) == nil)
      #expect(try app.contactStore.contactChanges(after: nil).groups.isEmpty)
      let head = try store.head().position
      #expect(throws: StoreError.self) {
        try app.contactStore.putGroup(
          try GroupCard(vCard: Self.appleGroup("mine", "Mine", members: [fixture.ann.externalID])))
      }
      #expect(throws: StoreError.self) { try app.contactStore.removeGroup(named: name) }
      #expect(try fixture.owner.contactStore.groupCards().map(\.group.id) == [fixture.group.id])
      #expect(try fixture.owner.contactStore.contact(withID: fixture.ann.id)?.groupIDs == [fixture.group.id])
      let refused = try countedRefusals(store, client: LimitedAccessTests.app, service: .contacts, since: head)
      #expect(refused == 2, "both refusals are recorded")
    }
  }
}
