import Foundation
import KalendsTestSupport
import Testing

/// Changes made here to an account's address book go out to its server, against Radicale: a
/// contact changed, made and removed, a group's members changed, each compared with what the
/// server then holds by PyPI's `vobject`; a change on both sides keeps the server's version, with
/// the local one in history and restorable; a card removed on the server and changed here; an
/// app's change through the gate, recorded as the app's; nothing sent twice.
@Suite("Command line: changes to an account's address book go out to its server")
struct AccountAddressBookTwoWayTests {
  typealias Book = AccountAddressBookTests

  /// The emails of the card at `path` on the server as `vobject` reads them, sorted; `[]` when
  /// the server holds no card there.
  static func emails(_ server: AccountSyncTests.Radicale, _ path: String) throws -> [String] {
    guard try server.curl("GET", path) == "200" else { return [] }
    let output = try CLI.python(
      """
      import sys, vobject
      card = vobject.readOne(sys.argv[1])
      print("\\n".join(sorted(e.value for e in card.contents.get("email", []))))
      """, [try server.get(path)])
    return output.split(separator: "\n").map(String.init).filter { !$0.isEmpty }
  }

  /// The member `UID`s of the group card at `path` as `vobject` reads them, sorted.
  static func members(_ server: AccountSyncTests.Radicale, _ path: String) throws -> [String] {
    let output = try CLI.python(
      """
      import sys, vobject
      card = vobject.readOne(sys.argv[1])
      members = card.contents.get("x-addressbookserver-member", [])
      print("\\n".join(sorted(m.value.removeprefix("urn:uuid:") for m in members)))
      """, [try server.get(path)])
    return output.split(separator: "\n").map(String.init).filter { !$0.isEmpty }
  }

  @Test func changesMadeHereGoOutAndAConflictKeepsTheServersVersion() throws {
    let setup = try AccountSyncTests.Setup()
    let (store, server) = (setup.store, setup.server)
    let mkcol = """
      <?xml version="1.0" encoding="utf-8"?><D:mkcol xmlns:D="DAV:" xmlns:CR="urn:ietf:params:xml:ns:carddav">\
      <D:set><D:prop><D:resourcetype><D:collection/><CR:addressbook/></D:resourcetype>\
      <D:displayname>Friends</D:displayname></D:prop></D:set></D:mkcol>
      """
    #expect(try server.curl("MKCOL", "/ann/friends/", mkcol) == "201")
    for (name, card) in [
      ("ann", Book.card("ann-1", "Ann", "Lee", email: "ann@example.com")),
      ("bob", Book.card("bob-1", "Bob", "Roe", email: "bob@example.com")),
      ("family", Book.group("family-1", "Family", members: ["ann-1"])),
    ] {
      #expect(try Book.put(server, "/ann/friends/\(name).vcf", card) == "201")
    }
    _ = try setup.add()
    let bookID = try #require(
      try store.objects(["contact", "book", "list"]).first { $0["title"] as? String == "Friends" }?["id"] as? String)
    func contact(_ given: String) throws -> String {
      try #require(
        try store.objects(["contact", "list", "--book", bookID]).first { $0["givenName"] as? String == given }?["id"]
          as? String)
    }
    let (ann, bob) = (try contact("Ann"), try contact("Bob"))

    // The person changes Bob, makes Dee, puts Bob in Family: the next sync sends them, once.
    try store.object(["contact", "update", bob, "--email", "bob@new.example"])
    let dee = try store.object(["contact", "add", "--given", "Dee", "--email", "dee@example.com", "--book", bookID])
    let deeUID = try #require(dee["externalId"] as? String)
    try store.object(["group", "add-member", "Family", bob])
    let waiting = try store.objects(["account", "list"]).first
    #expect((waiting?["sync"] as? [String: Any])?["outgoing"] as? Int == 3, "\(String(describing: waiting))")
    let sent = try setup.sync()
    #expect((sent["cards"] as? [String: Any])?["sent"] as? Int == 3, "\(sent)")
    #expect(try Self.emails(server, "/ann/friends/bob.vcf") == ["bob@new.example"])
    #expect(try Self.emails(server, "/ann/friends/\(deeUID).vcf") == ["dee@example.com"])
    #expect(try Self.members(server, "/ann/friends/family.vcf") == ["ann-1", "bob-1"])
    // What went out is not brought back, nor sent again: the next sync finds the server's new
    // sync token and writes only it; the one after is one request, writing nothing.
    let settled = try setup.sync()
    #expect((settled["cards"] as? [String: Any])?["updated"] as? Int == 0, "\(settled)")
    #expect((settled["cards"] as? [String: Any])?["sent"] as? Int == 0, "\(settled)")
    let head = try store.head()
    let idle = try setup.sync()
    #expect(idle["requests"] as? Int == 1, "\(idle)")
    #expect(try store.head() == head)

    // Removed here: removed there, and the group it was in lists it no more.
    #expect(try store.run(["contact", "remove", ann]).status == 0)
    _ = try setup.sync()
    #expect(try server.curl("GET", "/ann/friends/ann.vcf") == "404")
    #expect(try Self.members(server, "/ann/friends/family.vcf") == ["bob-1"])

    // Both sides change Bob: the server's version is kept, the conflict is a fact, the local
    // version is in history and restorable — and then it goes out.
    try store.object(["contact", "update", bob, "--email", "bob@here.example"])
    #expect(
      try Book.put(server, "/ann/friends/bob.vcf", Book.card("bob-1", "Bob", "Roe", email: "bob@there.example"))
        == "204")
    let conflicted = try setup.sync()
    let conflicts = try #require(conflicted["cardConflicts"] as? [[String: Any]], "\(conflicted)")
    #expect(conflicts.compactMap { $0["name"] as? String } == ["bob"], "\(conflicted)")
    let bobNow = try store.object(["contact", "show", bob])
    #expect(((bobNow["emailAddresses"] as? [[String: Any]])?.first?["value"] as? String) == "bob@there.example")
    let shown = try store.run(["account", "show", "Home"]).stdout
    #expect(shown.contains("conflict: Friends / bob") && shown.contains("contact restore"), "\(shown)")
    let versions = try store.objects(["contact", "history", bob])
    let mine = try #require(
      versions.last { version in
        let state = version["state"] as? [String: Any]
        return ((state?["emailAddresses"] as? [[String: Any]])?.first?["value"] as? String) == "bob@here.example"
      }?["version"] as? Int, "\(versions)")
    #expect(try store.run(["contact", "restore", bob, "--version", String(mine)]).status == 0)
    _ = try setup.sync()
    #expect(try Self.emails(server, "/ann/friends/bob.vcf") == ["bob@here.example"])
    let log = try store.run(["log", "tail", "-n", "400", "--format", "jsonl"]).stdout
    #expect(log.contains("remoteConflict"), "the conflict is a fact of the log")

    // Removed on the server, changed here: the server's removal stands, the change is in history.
    try store.object(["contact", "update", try contact("Dee"), "--email", "dee@here.example"])
    #expect(try server.curl("DELETE", "/ann/friends/\(deeUID).vcf") == "200")
    _ = try setup.sync()
    #expect(
      try store.objects(["contact", "list", "--book", bookID]).compactMap { $0["givenName"] as? String } == ["Bob"])

    // An app with access writes into the book through the gate: its fact, delivered by the
    // account; an app without access gets nothing, and its attempt is recorded.
    try store.object(["client", "register", "com.example.book", "--name", "Book", "--usage", "contacts=Friends."])
    try store.object(["access", "set", "com.example.book", "--service", "contacts", "--status", "full"])
    let eve = try store.run([
      "contact", "add", "--given", "Eve", "--email", "eve@example.com", "--book", bookID, "--as", "com.example.book",
      "--format", "json",
    ])
    #expect(eve.status == 0, "\(eve.stderr)")
    let eveUID = try #require((try json(eve.stdout) as? [String: Any])?["externalId"] as? String)
    try store.object(["client", "register", "com.example.other", "--name", "Other", "--usage", "contacts=No."])
    try store.object(["access", "set", "com.example.other", "--service", "contacts", "--status", "denied"])
    let refused = try store.run([
      "contact", "add", "--given", "Zed", "--book", bookID, "--as", "com.example.other",
    ])
    #expect(refused.status != 0)
    let audit = try store.objects(["audit", "history"])
    #expect(
      audit.contains {
        $0["kind"] as? String == "accessAttemptRefused" && $0["client"] as? String == "com.example.other"
      })
    _ = try setup.sync()
    #expect(try Self.emails(server, "/ann/friends/\(eveUID).vcf") == ["eve@example.com"])
    #expect(try server.curl("GET", "/ann/friends/") != "" && !(try server.get("/ann/friends/").contains("Zed")))

    // The store equals the server (vobject on both), and the state is the log's.
    let names = ["bob.vcf", "\(eveUID).vcf"]
    let expected = try Book.oracle(try names.map { try server.get("/ann/friends/\($0)") })
    #expect(try Book.people(try store.objects(["contact", "list", "--book", bookID])) == expected)
    _ = try setup.sync()
    #expect(try store.run(["rebuild"]).status == 0)
    #expect(try Book.people(try store.objects(["contact", "list", "--book", bookID])) == expected)
    let rebuiltHead = try store.head()
    _ = try setup.sync()
    #expect(try store.head() == rebuiltHead, "a rebuilt outbox holds nothing to send again")
    #expect(try store.run(["verify"]).status == 0)
  }

  /// A book made here is made on the server (extended `MKCOL`) by the next sync, a card made in it
  /// before that sync goes with it, and removing the book here removes its collection there.
  @Test func anAddressBookMadeHereIsMadeOnTheServerAndRemovedWithIt() throws {
    let setup = try AccountSyncTests.Setup()
    let (store, server) = (setup.store, setup.server)
    _ = try setup.add()
    let trips = try store.object(["contact", "book", "add", "Trips", "--account", "Home"])
    let tripsID = try #require(trips["id"] as? String)
    let dee = try store.object(["contact", "add", "--given", "Dee", "--email", "dee@example.com", "--book", tripsID])
    let deeUID = try #require(dee["externalId"] as? String)
    let made = try setup.sync()
    #expect(made["addressBooksMade"] as? Int == 1, "\(made)")
    #expect((made["cards"] as? [String: Any])?["sent"] as? Int == 1, "\(made)")
    let path = "/ann/\(tripsID.lowercased())/"
    let listing = try CLI.run(
      [
        "curl", "-s", "-u", "ann:s3cret-pass", "-X", "PROPFIND", "-H", "Depth: 0", "--data",
        #"<D:propfind xmlns:D="DAV:"><D:prop><D:displayname/><D:resourcetype/></D:prop></D:propfind>"#,
        server.base + path,
      ], program: URL(fileURLWithPath: "/usr/bin/env")
    ).stdout
    #expect(listing.contains("Trips") && listing.contains("addressbook"), "\(listing)")
    #expect(try Self.emails(server, path + "\(deeUID).vcf") == ["dee@example.com"])
    // Synced like any other from then on: nothing more to do, nothing written.
    _ = try setup.sync()
    let head = try store.head()
    _ = try setup.sync()
    #expect(try store.head() == head)

    // Its title is the server's; removing it here removes it there at the next sync.
    #expect(try store.run(["contact", "book", "rename", tripsID, "Travel"]).status != 0)
    #expect(try store.run(["contact", "book", "remove", tripsID]).status == 0)
    let removed = try setup.sync()
    #expect(removed["calendarsRemovedThere"] as? Int == 1, "\(removed)")
    #expect(try server.curl("GET", path) == "404")
    #expect(try store.objects(["contact", "book", "list"]).map { $0["title"] as? String } == ["Contacts"])
    #expect(try store.run(["verify"]).status == 0)
  }

  /// A CardDAV account: the address books alone, none of the principal's calendars.
  @Test func aCardDAVAccountSyncsTheAddressBooksAlone() throws {
    let setup = try AccountSyncTests.Setup()
    let (store, server) = (setup.store, setup.server)
    let mkcol = """
      <?xml version="1.0" encoding="utf-8"?><D:mkcol xmlns:D="DAV:" xmlns:CR="urn:ietf:params:xml:ns:carddav">\
      <D:set><D:prop><D:resourcetype><D:collection/><CR:addressbook/></D:resourcetype>\
      <D:displayname>Friends</D:displayname></D:prop></D:set></D:mkcol>
      """
    #expect(try server.curl("MKCOL", "/ann/friends/", mkcol) == "201")
    #expect(
      try Book.put(server, "/ann/friends/ann.vcf", Book.card("ann-1", "Ann", "Lee", email: "a@example.com")) == "201")
    let added = try store.run([
      "account", "add", "carddav", server.base, "--user", "ann", "--password-file", setup.passwordFile, "--title",
      "Cards", "--format", "json",
    ])
    #expect(added.status == 0, "\(added.stderr)")
    let summary = try #require((try json(added.stdout) as? [[String: Any]])?.first)
    #expect(summary["calendars"] as? Int == 0 && summary["addressBooksAdded"] as? Int == 1, "\(summary)")
    #expect(try store.objects(["calendar", "list"]).allSatisfy { $0["title"] as? String != "Work" })
    let shown = try store.object(["account", "show", "Cards"])
    #expect(shown["calendarHome"] is NSNull, "\(shown)")
  }
}
