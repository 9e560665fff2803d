import Foundation
import Kalends
import KalendsTestSupport
import Testing

/// Runs `Tests/Oracles/vcard_oracle.py` (PyPI's `vobject`) in a real `python3` process.
enum VCardOracle {
  /// vobject's reading of one card.
  struct Card: Decodable {
    struct Name: Decodable { var family, given, additional, prefix, suffix: String }
    struct Value: Decodable {
      var value: String
      var types: [String]
      var group: String?
    }
    struct Address: Decodable {
      var box, extended, street, city, region, code, country: String
      var types: [String]
    }
    var version: String?
    var uid: String?
    var fn: String?
    var n: Name?
    var nickname, title, note, bday: String?
    var org: [String]?
    var email: [Value]
    var tel: [Value]
    var url: [Value]
    var adr: [Address]
    var labels: [String: String]
    var members: [String]
  }

  static func run(_ arguments: [String]) throws -> Data {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments =
      ["python3", RecurrenceOracle.repositoryRoot.appendingPathComponent("Tests/Oracles/vcard_oracle.py").path]
      + arguments
    let output = Pipe()
    let errors = Pipe()
    process.standardOutput = output
    process.standardError = errors
    try process.run()
    let data = output.fileHandleForReading.readDataToEndOfFile()
    let messages = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    switch process.terminationStatus {
    case 0: return data
    case 3: throw OracleError.failed("vobject is missing — run tools/setup")
    default: throw OracleError.failed("the vCard oracle failed (\(process.terminationStatus)): \(messages)")
    }
  }

  /// The cards of `text` as vobject reads them.
  static func read(_ text: String) throws -> [Card] {
    let directory = TemporaryDirectory("vcard-oracle")
    let file = directory.path + "/cards.vcf"
    try Data(text.utf8).write(to: URL(fileURLWithPath: file))
    return try JSONDecoder().decode([Card].self, from: run(["read", file]))
  }

  /// The file vobject writes for cards described in `json` (see Tests/Oracles/vcard_oracle.py).
  static func write(_ json: String) throws -> [UInt8] {
    let directory = TemporaryDirectory("vcard-oracle")
    let spec = directory.path + "/cards.json"
    let file = directory.path + "/cards.vcf"
    try Data(json.utf8).write(to: URL(fileURLWithPath: spec))
    _ = try run(["write", spec, file])
    return Array(try Data(contentsOf: URL(fileURLWithPath: file)))
  }
}

@Suite("Contacts: vCard checked against vobject")
struct VCardOracleTests {
  @Test(arguments: VCardVersion.allCases)
  func vobjectReadsKalendsExportAsKalendsMeantIt(version: VCardVersion) throws {
    try withStore { store, _ in
      let owner = EventStore(store: store)
      let group = try owner.contactStore.save(ContactGroup(name: "Wind; Team"))
      let rich = try owner.contactStore.save(ContactFixture.rich(groups: [group.id]))
      var long = Contact(givenName: String(repeating: "Ünïcødé ", count: 30), familyName: "Long")
      long.note = String(repeating: "a, b; c\\ d — ", count: 40)
      long = try owner.contactStore.save(long)
      let cards = try VCardOracle.read(try owner.contactStore.exportVCards(version: version))
      #expect(cards.count == 3)
      for contact in [rich, long] {
        let card = try #require(cards.first { $0.uid == contact.externalID })
        #expect(card.version == version.rawValue)
        #expect(card.fn == contact.displayName)
        #expect(card.n?.family == contact.familyName ?? "" && card.n?.given == contact.givenName ?? "")
        #expect(card.n?.additional == contact.middleName ?? "" && card.n?.prefix == contact.namePrefix ?? "")
        #expect(card.n?.suffix == contact.nameSuffix ?? "")
        #expect(card.note == contact.note && card.nickname == contact.nickname && card.title == contact.jobTitle)
        #expect(card.email.map(\.value) == contact.emailAddresses.map(\.value))
        #expect(card.tel.map(\.value) == contact.phoneNumbers.map(\.value))
        #expect(card.url.map(\.value) == contact.urlAddresses.map(\.value))
        #expect(
          card.adr.map { [$0.box, $0.extended, $0.street, $0.city, $0.region, $0.code, $0.country] }
            == contact.postalAddresses.map {
              [
                $0.value.postOfficeBox, $0.value.extendedAddress, $0.value.street, $0.value.city, $0.value.state,
                $0.value.postalCode, $0.value.country,
              ]
            })
        // Each label as vobject sees it: a TYPE word, or the X-ABLabel of the property's group.
        let labels = zip(card.tel, contact.phoneNumbers).map { value, original in
          (
            value.group.flatMap { card.labels[$0] } ?? value.types.first.map { $0 == "cell" ? "mobile" : $0 },
            original.label
          )
        }
        for (seen, meant) in labels { #expect(seen == meant) }
      }
      let richCard = try #require(cards.first { $0.uid == rich.externalID })
      #expect(richCard.org == ["Wind; Power, Inc.", "Research"])
      #expect(richCard.bday == (version == .v3 ? "--04-12" : "--0412"))
      let groupCard = try #require(cards.first { $0.uid == group.externalID })
      #expect(groupCard.fn == "Wind; Team" && groupCard.members == ["urn:uuid:\(rich.externalID)"])
    }
  }

  @Test func kalendsReadsWhatVobjectWrites() throws {
    let spec = """
      [
        {"uid": "card-1", "n": {"family": "Nakamura", "given": "Hana", "additional": "M", "prefix": "Dr.", "suffix": "PhD"},
         "fn": "Dr. Hana M Nakamura PhD", "nickname": "Hanachan", "title": "Chief, Research; Labs",
         "note": "Line one\\nLine two, with a comma; and a semicolon \\\\ and a backslash",
         "org": ["Ōsaka Works", "R&D"], "bday": "1985-04-12",
         "email": [{"value": "hana@example.jp", "types": ["internet", "work"]},
                   {"value": "h@example.org", "types": ["internet", "home"]}],
         "tel": [{"value": "+81 6 1234 5678", "types": ["cell"]}, {"value": "+81 6 0000 0000", "types": ["work", "fax"]}],
         "url": [{"value": "https://example.jp/hana"}],
         "adr": [{"street": "1-2-3 Umeda", "city": "Ōsaka", "region": "Ōsaka", "code": "530-0001", "country": "Japan",
                  "types": ["work"]}]},
        {"uid": "card-2", "n": {"family": "", "given": "Solo"}, "fn": "Solo", "note": "\(String(repeating: "ü", count: 200))"}
      ]
      """
    let bytes = try VCardOracle.write(spec)
    try withStore { store, _ in
      let owner = EventStore(store: store)
      let summary = try owner.contactStore.importVCards(bytes)
      #expect(summary.contactsCreated == 2)
      let hana = try #require(try owner.contactStore.contacts(matching: .name("hana")).first)
      #expect(hana.externalID == "card-1")
      #expect(hana.familyName == "Nakamura" && hana.givenName == "Hana" && hana.middleName == "M")
      #expect(hana.namePrefix == "Dr." && hana.nameSuffix == "PhD" && hana.nickname == "Hanachan")
      #expect(hana.jobTitle == "Chief, Research; Labs")
      #expect(hana.note == "Line one\nLine two, with a comma; and a semicolon \\ and a backslash")
      #expect(hana.organizationName == "Ōsaka Works" && hana.departmentName == "R&D")
      #expect(hana.birthday == ContactDate(year: 1985, month: 4, day: 12))
      #expect(
        hana.emailAddresses == [
          LabeledValue(label: "work", value: "hana@example.jp"), LabeledValue(label: "home", value: "h@example.org"),
        ])
      #expect(
        hana.phoneNumbers == [
          LabeledValue(label: "mobile", value: "+81 6 1234 5678"),
          LabeledValue(label: "work fax", value: "+81 6 0000 0000"),
        ])
      #expect(hana.urlAddresses == [LabeledValue(value: "https://example.jp/hana")])
      #expect(
        hana.postalAddresses == [
          LabeledValue(
            label: "work",
            value: PostalAddress(
              street: "1-2-3 Umeda", city: "Ōsaka", state: "Ōsaka", postalCode: "530-0001", country: "Japan"))
        ])
      let solo = try #require(try owner.contactStore.contacts(matching: .name("solo")).first)
      #expect(solo.note == String(repeating: "ü", count: 200), "a folded line is unfolded whole")
      #expect(
        try owner.contactStore.contacts(matching: .name("osaka")).map(\.id) == [hana.id], "organizations are searched")
    }
  }
}
