import Foundation
import Kalends
import Testing

@Suite("Contacts: vCard 3.0 and 4.0 import and export")
struct VCardTests {
  @Test(arguments: VCardVersion.allCases)
  func anExportImportsBackIntoTheSameContactsAndGroups(version: VCardVersion) throws {
    try withStore { store, _ in
      let owner = EventStore(store: store)
      let group = try owner.contactStore.save(ContactGroup(name: "Wind, Team"))
      let rich = try owner.contactStore.save(ContactFixture.rich(groups: [group.id]))
      var company = Contact(kind: .organization)
      company.organizationName = "Acme"
      company.birthday = ContactDate(year: 1999, month: 2, day: 28)
      company.anniversary = ContactDate(year: nil, month: 6, day: 19)
      let plain = try owner.contactStore.save(company)
      let text = try owner.contactStore.exportVCards(version: version)
      #expect(text.contains("VERSION:\(version.rawValue)\r\n"))

      try withStore { other, _ in
        let copy = EventStore(store: other)
        let summary = try copy.contactStore.importVCards(Array(text.utf8))
        #expect(summary.contactsCreated == 2 && summary.groupsCreated == 1)
        let imported = try copy.contactStore.contacts()
        let groups = try copy.contactStore.groups()
        #expect(groups.map(\.name) == ["Wind, Team"] && groups.first?.externalID == group.externalID)
        for original in [rich, plain] {
          var read = try #require(imported.first { $0.externalID == original.externalID })
          #expect(read.groupIDs == (original.groupIDs.isEmpty ? [] : groups.map(\.id)))
          read.groupIDs = original.groupIDs
          #expect(EventStoreTesting.sameContent(read, original), "\(read)\n≠\n\(original)")
        }
        // The same file again changes nothing.
        let head = try other.head().position
        let again = try copy.contactStore.importVCards(Array(text.utf8))
        #expect(again.contactsUnchanged == 2 && again.groupsUnchanged == 1)
        #expect(try other.head().position == head)
        #expect(
          try copy.contactStore.exportVCards(version: version) == text, "the export of the import is the same file")
      }
    }
  }

  /// An anniversary is read from vCard 4.0's `ANNIVERSARY` and from the `X-` properties address
  /// books write in 3.0, and written as `ANNIVERSARY` (4.0) or `X-ANNIVERSARY` (3.0).
  @Test func anniversariesAreReadInEveryFormAddressBooksWrite() throws {
    try withStore { store, _ in
      let owner = EventStore(store: store)
      let cards = [
        ("4.0", "ANNIVERSARY:20100605"), ("3.0", "X-ANNIVERSARY:2010-06-05"),
        ("3.0", "X-EVOLUTION-ANNIVERSARY:2010-06-05"),
      ].enumerated().map { index, card in
        "BEGIN:VCARD\r\nVERSION:\(card.0)\r\nUID:a\(index)\r\nFN:A\(index)\r\nN:;A\(index);;;\r\n\(card.1)\r\nEND:VCARD\r\n"
      }.joined()
      #expect(try owner.contactStore.importVCards(Array(cards.utf8)).contactsCreated == 3)
      let contacts = try owner.contactStore.contacts()
      #expect(contacts.map(\.anniversary) == Array(repeating: ContactDate(year: 2010, month: 6, day: 5), count: 3))
      #expect(contacts.allSatisfy { $0.additionalProperties.isEmpty })
      let v4 = try owner.contactStore.exportVCards(version: .v4)
      let v3 = try owner.contactStore.exportVCards(version: .v3)
      #expect(v4.components(separatedBy: "ANNIVERSARY:20100605\r\n").count == 4)
      #expect(v3.components(separatedBy: "X-ANNIVERSARY:2010-06-05\r\n").count == 4)
      #expect(try owner.contactStore.importVCards(Array(v4.utf8)).contactsUnchanged == 3)
    }
  }

  @Test func appleCardsWithLabelsGroupsAndFormattedNamesOnlyAreRead() throws {
    let text = """
      BEGIN:VCARD
      VERSION:3.0
      PRODID:-//Apple Inc.//macOS 14.0//EN
      N:Appleseed;Johnny;;;
      FN:Johnny Appleseed
      item1.EMAIL;type=INTERNET;type=pref:johnny@example.com
      item1.X-ABLabel:_$!<Other>!$_
      item2.TEL:+1-555-0123
      item2.X-ABLabel:Orchard
      TEL;type=CELL;type=VOICE;type=pref:+1-555-0100
      BDAY;X-APPLE-OMIT-YEAR=1604:1604-04-12
      X-ABUID:5AD380FD-B2DE-4261-BA99-DE1D1DB52FBE:ABPerson
      UID:johnny-1
      END:VCARD
      BEGIN:VCARD
      VERSION:3.0
      FN:Only A Formatted Name
      UID:urn:uuid:only-fn
      END:VCARD
      BEGIN:VCARD
      VERSION:3.0
      X-ADDRESSBOOKSERVER-KIND:group
      N:Orchard Club
      FN:Orchard Club
      UID:club
      X-ADDRESSBOOKSERVER-MEMBER:urn:uuid:johnny-1
      X-ADDRESSBOOKSERVER-MEMBER:urn:uuid:only-fn
      X-ADDRESSBOOKSERVER-MEMBER:urn:uuid:nobody
      END:VCARD

      """.replacingOccurrences(of: "\n", with: "\r\n")
    try withStore { store, _ in
      let owner = EventStore(store: store)
      let summary = try owner.contactStore.importVCards(Array(text.utf8))
      #expect(summary.contactsCreated == 2 && summary.groupsCreated == 1 && summary.unknownMembers == 1)
      let johnny = try #require(try owner.contactStore.contacts(matching: .name("johnny")).first)
      #expect(johnny.emailAddresses == [LabeledValue(label: "other", value: "johnny@example.com")])
      #expect(
        johnny.phoneNumbers == [
          LabeledValue(label: "Orchard", value: "+1-555-0123"), LabeledValue(label: "mobile", value: "+1-555-0100"),
        ])
      #expect(johnny.birthday == ContactDate(year: 1604, month: 4, day: 12))
      #expect(johnny.additionalProperties.contains { $0.hasPrefix("X-ABUID:") })
      let club = try #require(try owner.contactStore.groups().first)
      #expect(club.name == "Orchard Club")
      let members = try owner.contactStore.contacts(matching: .group(club.id)).map(\.displayName)
      #expect(Set(members) == ["Johnny Appleseed", "Only A Formatted Name"])
    }
  }

  @Test func anErrorNamesItsLineAndNothingIsImported() throws {
    let good = "BEGIN:VCARD\r\nVERSION:4.0\r\nFN:Good\r\nN:Good;;;;\r\nEND:VCARD\r\n"
    let cases: [(String, Int, VCardError.Reason)] = [
      (
        good + "BEGIN:VCARD\r\nVERSION:4.0\r\nFN:Bad\r\nBDAY:1999-02-30\r\nEND:VCARD\r\n", 9,
        .invalidValue(property: "BDAY", value: "1999-02-30", expected: "a date such as 1985-04-12, 19850412 or --0412")
      ),
      (good + "BEGIN:VCARD\r\nVERSION:2.1\r\nFN:Old\r\nEND:VCARD\r\n", 7, .unsupportedVersion("2.1")),
      (good + "BEGIN:VCARD\r\nFN:No version\r\nEND:VCARD\r\n", 6, .missingProperty("VERSION")),
      (good + "BEGIN:VCARD\r\nVERSION:4.0\r\nFN:Cut\r\n", 6, .unexpectedEnd),
      (good + "FN:Stray\r\n", 6, .notAVCard),
      (
        good + "BEGIN:VCARD\r\nVERSION:4.0\r\n:no name\r\nEND:VCARD\r\n", 8,
        .malformedLine("\":no name\" does not start with a property name")
      ),
      (
        good + "BEGIN:VCARD\r\nVERSION:4.0\r\nFN:Ctl \\n\u{7}\r\nEND:VCARD\r\n", 6,
        .refused("a name or text field holds the control character U+0007 — fix it")
      ),
    ]
    try withStore { store, _ in
      let owner = EventStore(store: store)
      let head = try store.head().position
      for (text, line, reason) in cases {
        #expect(throws: StoreError.vCard(VCardError(line: line, reason))) {
          try owner.contactStore.importVCards(Array(text.utf8))
        }
      }
      var invalid = Array(good.utf8)
      invalid.insert(0xFF, at: 30)
      #expect(throws: StoreError.vCard(VCardError(line: 3, .invalidUTF8))) {
        try owner.contactStore.importVCards(invalid)
      }
      #expect(try store.head().position == head, "nothing of a failing file is imported")
    }
  }

  @Test func aCardInTheStoreIsUpdatedByItsUIDAndKeepsItsIdentifier() throws {
    try withStore { store, _ in
      let owner = EventStore(store: store)
      var ann = Contact(givenName: "Ann")
      ann.externalID = "ann-uid"
      ann = try owner.contactStore.save(ann)
      let text = "BEGIN:VCARD\r\nVERSION:4.0\r\nUID:urn:uuid:ann-uid\r\nN:Lee;Ann;;;\r\nFN:Ann Lee\r\nEND:VCARD\r\n"
      let summary = try owner.contactStore.importVCards(Array(text.utf8))
      #expect(summary.contactsUpdated == 1 && summary.contactsCreated == 0)
      let updated = try #require(try owner.contactStore.contact(withID: ann.id))
      #expect(updated.familyName == "Lee" && updated.creationDate == ann.creationDate)
    }
  }
}

/// Comparisons of contacts for tests.
enum EventStoreTesting {
  /// Whether two contacts hold the same fields, identity, versions and dates aside.
  static func sameContent(_ a: Contact, _ b: Contact) -> Bool {
    let texts: [KeyPath<Contact, String?>] = [
      \.namePrefix, \.givenName, \.middleName, \.familyName, \.nameSuffix, \.nickname, \.phoneticGivenName,
      \.phoneticMiddleName, \.phoneticFamilyName, \.organizationName, \.departmentName, \.jobTitle, \.note,
    ]
    return texts.allSatisfy { a[keyPath: $0] == b[keyPath: $0] } && a.externalID == b.externalID && a.kind == b.kind
      && a.emailAddresses == b.emailAddresses && a.phoneNumbers == b.phoneNumbers
      && a.postalAddresses == b.postalAddresses && a.urlAddresses == b.urlAddresses && a.birthday == b.birthday
      && a.groupIDs == b.groupIDs && a.additionalProperties == b.additionalProperties
  }
}
