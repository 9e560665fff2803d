import Foundation
import KalendsTestSupport
import Testing

@Suite("Command line: contacts and groups")
struct ContactCommandTests {
  /// Google's contact labels arrive as CATEGORIES: each becomes a group (found by name, else made),
  /// the contact in it; Google's own labels for every contact are not groups; again, nothing moves.
  @Test func categoriesOfAnExportBecomeGroups() throws {
    let store = try CLIStore()
    _ = try store.object(["group", "add", "Work"])
    let file = store.directory.path + "/google.vcf"
    let cards = """
      BEGIN:VCARD\r
      VERSION:3.0\r
      UID:c-1\r
      FN:Ann Lee\r
      N:Lee;Ann;;;\r
      CATEGORIES:Family,myContacts\r
      END:VCARD\r
      BEGIN:VCARD\r
      VERSION:3.0\r
      UID:c-2\r
      FN:Bo Chen\r
      N:Chen;Bo;;;\r
      CATEGORIES:Family,Work,starred\r
      END:VCARD\r

      """
    try Data(cards.utf8).write(to: URL(fileURLWithPath: file))
    let summary = try store.object(["contact", "import", file])
    #expect(summary["contactsCreated"] as? Int == 2 && summary["groupsCreated"] as? Int == 1, "\(summary)")
    let groups = try store.objects(["group", "list"])
    #expect(Set(groups.compactMap { $0["name"] as? String }) == ["Family", "Work"], "\(groups)")
    let ids = Dictionary(
      uniqueKeysWithValues: groups.compactMap { group in
        (group["name"] as? String).flatMap { name in (group["id"] as? String).map { (name, $0) } }
      })
    let contacts = try store.objects(["contact", "list"])
    func groupsOf(_ name: String) -> Set<String> {
      Set((contacts.first { ($0["familyName"] as? String) == name }?["groupIds"] as? [String]) ?? [])
    }
    #expect(groupsOf("Lee") == [ids["Family"]!] && groupsOf("Chen") == [ids["Family"]!, ids["Work"]!], "\(contacts)")
    let again = try store.object(["contact", "import", file])
    #expect(again["contactsUnchanged"] as? Int == 2 && again["groupsCreated"] as? Int == 0, "\(again)")
  }

  @Test func contactsAreAddedSearchedChangedGroupedAndRemoved() throws {
    let store = try CLIStore()
    let ann = try store.object([
      "contact", "add", "--given", "Ann", "--family", "Lee", "--email", "work=ann@example.com", "--phone",
      "mobile=+1 555 0100", "--address", "home=1 Main St;Springfield;IL;62701;USA", "--birthday", "--04-12",
      "--organization", "Acme",
    ])
    #expect(ann["displayName"] as? String == "Ann Lee" && ann["birthday"] as? String == "--04-12")
    #expect(ann["emailAddresses"] as? [[String: String]] == [["label": "work", "value": "ann@example.com"]])
    let address = try #require((ann["postalAddresses"] as? [[String: Any]])?.first)
    #expect(address["city"] as? String == "Springfield" && address["label"] as? String == "home")
    let annID = try #require(ann["id"] as? String)
    let jose = try store.object(["contact", "add", "--given", "José", "--family", "Ørsted", "--phone", "(555) 0199"])
    let joseID = try #require(jose["id"] as? String)

    func ids(_ arguments: [String]) throws -> [String] {
      try store.objects(arguments).compactMap { $0["id"] as? String }
    }
    #expect(try ids(["contact", "list"]) == [annID, joseID], "by family name")
    #expect(try ids(["contact", "search", "jose"]) == [joseID])
    #expect(try ids(["contact", "search", "ors"]) == [joseID])
    #expect(try ids(["contact", "search", "ANN@", "--by", "email"]) == [annID])
    #expect(try ids(["contact", "search", "555 019", "--by", "phone"]) == [joseID])
    #expect(
      try Set(ids(["contact", "search", "555 01", "--by", "phone"])) == [annID, joseID],
      "with or without a country code")
    #expect(try ids(["contact", "search", "+1 555", "--by", "phone"]) == [annID])
    #expect(try ids(["contact", "search", "acme"]) == [annID], "organizations are names")

    let version = try #require(ann["version"] as? Int)
    let changed = try store.object(["contact", "update", annID, "--family", "Park", "--email", ""])
    #expect(changed["familyName"] as? String == "Park" && (changed["emailAddresses"] as? [Any])?.isEmpty == true)
    #expect(changed["givenName"] as? String == "Ann", "fields not given stay")
    let head = try store.head()
    #expect(
      try store.run(["contact", "update", annID, "--nickname", "A", "--if-version", String(version)]).status == 67)
    #expect(try store.head() == head)

    let group = try store.object(["group", "add", "Friends"])
    let groupID = try #require(group["id"] as? String)
    let member = try store.object(["group", "add-member", groupID, annID])
    #expect(member["groupIds"] as? [String] == [groupID])
    #expect(try ids(["contact", "list", "--group", groupID]) == [annID])
    #expect(try store.object(["group", "rename", groupID, "Close friends"])["name"] as? String == "Close friends")
    #expect(try store.objects(["group", "list"]).compactMap { $0["name"] as? String } == ["Close friends"])
    try store.object(["group", "remove-member", groupID, annID])
    #expect(try ids(["contact", "list", "--group", groupID]).isEmpty)
    let removedGroup = try store.run(["group", "remove", groupID])
    #expect(removedGroup.status == 0 && removedGroup.stdout.contains(groupID))
    #expect(try store.run(["contact", "list", "--group", groupID]).status == 66)

    let removed = try store.run(["contact", "remove", joseID])
    #expect(removed.status == 0 && removed.stdout.contains("José Ørsted"))
    #expect(try ids(["contact", "list"]) == [annID])
    #expect(try store.run(["contact", "show", joseID]).status == 66)
    #expect(try store.run(["contact", "remove", joseID]).status == 66)

    let erased = try store.run(["erase", "contact", annID, "--reason", "asked"])
    #expect(erased.status == 0, "\(erased.stderr)")
    let log = try store.run(["log", "show", "--format", "json"])
    #expect(!log.stdout.contains("Springfield") && !log.stdout.contains("ann@example.com"))
    #expect(try store.run(["verify"]).status == 0)
  }

  @Test func aVCardFileImportsInOneTransactionAndExportsAgain() throws {
    let store = try CLIStore()
    let file = store.directory.path + "/cards.vcf"
    let cards = """
      BEGIN:VCARD\r
      VERSION:3.0\r
      UID:u-1\r
      N:Lee;Ann;;;\r
      FN:Ann Lee\r
      EMAIL;TYPE=INTERNET;TYPE=HOME:ann@example.com\r
      END:VCARD\r
      BEGIN:VCARD\r
      VERSION:4.0\r
      UID:g-1\r
      KIND:group\r
      FN:Book club\r
      MEMBER:urn:uuid:u-1\r
      END:VCARD\r

      """
    try Data(cards.utf8).write(to: URL(fileURLWithPath: file))
    let summary = try store.object(["contact", "import", file])
    #expect(summary["contactsCreated"] as? Int == 1 && summary["groupsCreated"] as? Int == 1)
    let again = try store.object(["contact", "import", file])
    #expect(again["contactsUnchanged"] as? Int == 1 && again["groupsUnchanged"] as? Int == 1)
    let exported = try store.run(["contact", "export", "--vcard-version", "4.0"])
    #expect(exported.status == 0)
    #expect(exported.stdout.contains("UID:u-1\r\n") && exported.stdout.contains("MEMBER:urn:uuid:u-1\r\n"))
    #expect(exported.stdout.contains("EMAIL;TYPE=home:ann@example.com\r\n"))

    let head = try store.head()
    let broken = try CLI.run(
      ["contact", "import", "-", "--store", store.directory.storePath],
      stdin: "BEGIN:VCARD\r\nVERSION:4.0\r\nBDAY:soon\r\nEND:VCARD\r\n")
    #expect(broken.status == 65)
    #expect(broken.stderr.hasPrefix("error: line 3: BDAY value \"soon\" is not a date"), "\(broken.stderr)")
    #expect(broken.stderr.contains("(nothing was imported)"))
    #expect(try store.head() == head)
  }

  @Test func anAppWithoutAccessToContactsIsRefusedAndTheRefusalRecorded() throws {
    let store = try CLIStore()
    try store.object(["contact", "add", "--given", "Ann"])
    try store.object(["client", "register", "com.example.book", "--name", "Book", "--usage", "contacts=Friends."])
    for arguments in [
      ["contact", "list"], ["contact", "search", "ann"], ["contact", "add", "--given", "Eve"], ["group", "list"],
    ] {
      let refused = try store.run(arguments + ["--as", "com.example.book"])
      #expect(refused.status == 68, "\(arguments): \(refused.stderr)")
      #expect(refused.stdout.isEmpty)
    }
    let rows = try store.objects(["audit", "history", "--client", "com.example.book", "--format", "json"])
      .filter { $0["kind"] as? String == "accessAttemptRefused" && $0["service"] as? String == "contacts" }
    #expect(rows.reduce(0) { $0 + (($1["count"] as? Int) ?? 0) } == 4, "\(rows)")
    #expect(try store.objects(["contact", "list"]).count == 1, "nothing was written")
  }

  @Test func thePersonGivesLimitedAccessAndPicksAContactForAnApp() throws {
    let store = try CLIStore()
    let ann = try #require(try store.object(["contact", "add", "--given", "Ann"])["id"] as? String)
    let bob = try #require(try store.object(["contact", "add", "--given", "Bob"])["id"] as? String)
    for app in ["com.example.book", "com.example.chat"] {
      try store.object(["client", "register", app, "--name", "App", "--usage", "contacts=Friends."])
    }
    let asked = try store.object([
      "access", "request", "--as", "com.example.book", "--service", "contacts", "--answer", "limited", "--contacts",
      ann,
    ])
    #expect(asked["status"] as? String == "limited")
    func seen(_ app: String) throws -> [String] {
      try store.objects(["contact", "list", "--as", app]).compactMap { $0["id"] as? String }
    }
    #expect(try seen("com.example.book") == [ann])
    let set = try store.object([
      "access", "set", "com.example.book", "--service", "contacts", "--status", "limited", "--contacts", bob,
    ])
    #expect(set["contacts"] as? [String] == [bob])
    #expect(try seen("com.example.book") == [bob])
    let refused = try store.run(["contact", "update", ann, "--nickname", "x", "--as", "com.example.book"])
    #expect(refused.status == 66, "a contact it may not use does not exist for it: \(refused.stderr)")
    #expect(
      try store.run(["access", "set", "com.example.book", "--service", "calendars", "--status", "limited"]).status == 65
    )

    let picked = try store.object(["contact", "pick", "--for", "com.example.chat", "--contact", ann])
    #expect(picked["id"] as? String == ann && picked["givenName"] as? String == "Ann")
    #expect(try store.run(["contact", "list", "--as", "com.example.chat"]).status == 68, "no access was granted")
    let history = try store.objects(["audit", "history", "--client", "com.example.chat", "--format", "json"])
    #expect(history.contains { $0["kind"] as? String == "contactPicked" })
    let book = try store.objects(["audit", "history", "--client", "com.example.book", "--format", "json"])
    #expect(book.filter { $0["kind"] as? String == "accessScopeChanged" }.count == 2)
    #expect(try store.run(["verify"]).status == 0)
  }

  /// Groups are named by name (exact, then the unique start of one, in either case) or by the start
  /// of their id; two matches are refused listing them, none is not found.
  @Test func groupsAreNamedByNameOrByTheStartOfTheirId() throws {
    let store = try CLIStore()
    let family = try #require(try store.object(["group", "add", "Family"])["id"] as? String)
    _ = try store.object(["group", "add", "Friends"])
    let ada = try #require(try store.object(["contact", "add", "--given", "Ada"])["id"] as? String)
    let added = try store.object(["group", "add-member", "fam", String(ada.prefix(6))])
    #expect(added["groupIds"] as? [String] == [family], "\(added)")
    let ambiguous = try store.run(["group", "rename", "f", "X"])
    #expect(ambiguous.status == 65 && ambiguous.stderr.contains("Friends"), "\(ambiguous.stderr)")
    #expect(try store.object(["group", "rename", String(family.prefix(5)), "Kin"])["name"] as? String == "Kin")
    let none = try store.run(["group", "remove", "Colleagues"])
    #expect(none.status == 66, "\(none.stderr)")
    #expect(try store.run(["group", "remove", "Kin"]).status == 0)
    #expect(try store.objects(["group", "list"]).compactMap { $0["name"] as? String } == ["Friends"])
  }
}
