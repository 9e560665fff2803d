import Foundation
import KalendsTestSupport
import Testing

/// An account's address books (CardDAV) synced into the store's contacts containers, against
/// Radicale: cards and a group in, changes and removals on the server brought, what the store
/// holds compared with what the server holds by PyPI's `vobject` (what goes out: the
/// `AccountAddressBookTwoWayTests`).
@Suite("Command line: an account's address books are synced into the store")
struct AccountAddressBookTests {
  typealias Setup = AccountSyncTests.Setup

  static func card(_ uid: String, _ given: String, _ family: String, email: String, birthday: String? = nil) -> String {
    "BEGIN:VCARD\r\nVERSION:3.0\r\nUID:\(uid)\r\nN:\(family);\(given);;;\r\nFN:\(given) \(family)\r\n"
      + "EMAIL;TYPE=INTERNET:\(email)\r\n" + (birthday.map { "BDAY:\($0)\r\n" } ?? "") + "END:VCARD\r\n"
  }

  static func group(_ uid: String, _ name: String, members: [String]) -> String {
    "BEGIN:VCARD\r\nVERSION:3.0\r\nUID:\(uid)\r\nN:\(name);;;;\r\nFN:\(name)\r\nX-ADDRESSBOOKSERVER-KIND:group\r\n"
      + members.map { "X-ADDRESSBOOKSERVER-MEMBER:urn:uuid:\($0)\r\n" }.joined() + "END:VCARD\r\n"
  }

  /// PUTs `card` at `path` on the server as a CardDAV client does; the HTTP status.
  static func put(_ server: AccountSyncTests.Radicale, _ path: String, _ card: String) throws -> String {
    try CLI.run(
      [
        "curl", "-s", "-o", "/dev/null", "-w", "%{http_code}", "-u", "ann:s3cret-pass", "-X", "PUT", "-H",
        "Content-Type: text/vcard", "--data-binary", card, server.base + path,
      ], program: URL(fileURLWithPath: "/usr/bin/env")
    ).stdout
  }

  /// The people of every vCard text in `texts` as `vobject` reads them: FN and emails, sorted.
  static func oracle(_ texts: [String]) throws -> String {
    try oracleOutput(texts).trimmingCharacters(in: .whitespacesAndNewlines)
  }

  private static func oracleOutput(_ texts: [String]) throws -> String {
    try CLI.python(
      """
      import sys, vobject
      rows = []
      for text in sys.argv[1:]:
          for card in vobject.readComponents(text):
              if "x-addressbookserver-kind" in card.contents:
                  continue
              rows.append((card.fn.value, sorted(e.value for e in card.contents.get("email", []))))
      print(sorted(rows))
      """, texts)
  }

  /// The people of the store's contacts JSON, in the oracle's form.
  static func people(_ contacts: [[String: Any]]) throws -> String {
    let rows = contacts.map { contact -> String in
      let emails = ((contact["emailAddresses"] as? [[String: Any]]) ?? []).compactMap { $0["value"] as? String }
        .sorted()
      return
        "(\(pythonString(contact["displayName"] as? String ?? "")), [\(emails.map(pythonString).joined(separator: ", "))])"
    }.sorted()
    return "[" + rows.joined(separator: ", ") + "]"
  }

  static func pythonString(_ text: String) -> String { "'\(text)'" }

  @Test func anAccountsAddressBookComesIntoAContainerOfItsOwnAndFollowsTheServer() throws {
    let setup = try Setup()
    let (store, server) = (setup.store, setup.server)
    let mkcol = """
      <?xml version="1.0" encoding="utf-8"?><D:mkcol xmlns:D="DAV:" xmlns:CR="urn:ietf:params:xml:ns:carddav">\
      <D:set><D:prop><D:resourcetype><D:collection/><CR:addressbook/></D:resourcetype>\
      <D:displayname>Friends</D:displayname></D:prop></D:set></D:mkcol>
      """
    #expect(try server.curl("MKCOL", "/ann/friends/", mkcol) == "201")
    #expect(
      try Self.put(
        server, "/ann/friends/ann.vcf",
        Self.card("ann-1", "Ann", "Lee", email: "ann@example.com", birthday: "1990-12-17")) == "201")
    #expect(
      try Self.put(server, "/ann/friends/bob.vcf", Self.card("bob-1", "Bob", "Roe", email: "bob@example.com")) == "201")
    #expect(
      try Self.put(server, "/ann/friends/family.vcf", Self.group("family-1", "Family", members: ["ann-1"])) == "201")

    let first = try setup.add()
    #expect(first["addressBooksAdded"] as? Int == 1, "\(first)")
    #expect((first["cards"] as? [String: Any])?["created"] as? Int == 3, "\(first)")
    let books = try store.objects(["contact", "book", "list"])
    let friends = try #require(books.first { $0["title"] as? String == "Friends" }, "\(books)")
    let bookID = try #require(friends["id"] as? String)
    #expect(friends["allowsContentModifications"] as? Bool == true, "Radicale lets the user change it: \(friends)")
    #expect(friends["account"] as? String == "Home", "\(friends)")
    #expect(try store.run(["contact", "book", "list"]).stdout.contains("account Home"))
    let listed = try store.objects(["contact", "list", "--book", bookID])
    let expected = try Self.oracle([server.get("/ann/friends/ann.vcf"), server.get("/ann/friends/bob.vcf")])
    let people = try Self.people(listed)
    #expect(people == expected, "\(people) \(expected)")
    let groups = try store.objects(["group", "list"])
    let family = try #require(groups.first { $0["name"] as? String == "Family" }, "\(groups)")
    let annID = try #require(listed.first { $0["givenName"] as? String == "Ann" }?["id"] as? String)
    let familyID = try #require(family["id"] as? String)
    #expect((listed.first { $0["id"] as? String == annID }?["groupIds"] as? [String]) == [familyID])
    // The records are the account's.
    let log = try store.run(["log", "tail", "-n", "5", "--format", "jsonl"]).stdout
    #expect(log.contains("\"type\":\"source\""), "\(log)")
    // Ann's birthday is in the birthdays calendar, as any contact's.
    #expect(try store.run(["calendar", "create", "Birthdays", "--birthdays"]).status == 0)
    let december = try store.objects([
      "events", "--from", "2026-12-01", "--to", "2027-01-01", "--calendar", "Birthdays",
    ])
    #expect(december.compactMap { $0["title"] as? String } == ["Ann Lee's Birthday"])

    // Changes on the server: Bob's email changed, Ann removed, Cy new; a sync brings exactly them.
    #expect(
      try Self.put(server, "/ann/friends/bob.vcf", Self.card("bob-1", "Bob", "Roe", email: "bob@work.example")) == "204"
    )
    #expect(try server.curl("DELETE", "/ann/friends/ann.vcf") == "200")
    #expect(
      try Self.put(server, "/ann/friends/cy.vcf", Self.card("cy-1", "Cy", "Poe", email: "cy@example.com")) == "201")
    let second = try setup.sync()
    let cards = try #require(second["cards"] as? [String: Any], "\(second)")
    #expect(
      cards["created"] as? Int == 1 && cards["updated"] as? Int == 1 && cards["removed"] as? Int == 1, "\(second)")
    let now = try store.objects(["contact", "list", "--book", bookID])
    #expect(
      try Self.people(now) == Self.oracle([server.get("/ann/friends/bob.vcf"), server.get("/ann/friends/cy.vcf")]))

    // Nothing new: nothing written, and one listing of the home serves calendars and books.
    let head = try store.head()
    let idle = try setup.sync()
    #expect(idle["requests"] as? Int == 1, "\(idle)")
    #expect(try store.head() == head)

    // The book itself is the server's: the person may not rename or remove it here.
    let renamed = try store.run(["contact", "book", "rename", bookID, "Pals"])
    #expect(renamed.status != 0 && renamed.stderr.contains("account's"), "\(renamed.stderr)")
    try store.object([
      "client", "register", "com.example.book", "--name", "Book", "--usage", "contacts=Friends.",
    ])
    try store.object(["access", "set", "com.example.book", "--service", "contacts", "--status", "full"])
    // The app sees the book and its cards, never where the book is or as whom it is synced.
    let seen = try store.run(["contact", "book", "list", "--as", "com.example.book", "--format", "json"])
    #expect(seen.status == 0 && seen.stdout.contains("Friends"), "\(seen.stdout) \(seen.stderr)")
    let cardsSeen = try store.run(["contact", "list", "--book", bookID, "--as", "com.example.book", "--format", "json"])
    #expect(cardsSeen.stdout.contains("bob@work.example"), "\(cardsSeen.stdout)")
    for answer in [seen.stdout, cardsSeen.stdout] {
      #expect(!answer.contains(server.base) && !answer.contains("/ann/") && !answer.contains("s3cret"), "\(answer)")
    }
    // Over CardDAV the app may change the cards (they go out to the server), not the book's own
    // properties (the server's).
    let served = try ServedStore(serving: store, ["--listen", "127.0.0.1:0"])
    let base = "http://" + (try #require(served.tcpAddress))
    let token = try #require(
      try store.object(["client", "token", "create", "com.example.book", "--label", "dav"])["secret"] as? String)
    let collection = base + "/dav/addressbooks/\(bookID)/"
    let privileges = try ServedStore.request(
      "PROPFIND", collection, token: token,
      body: #"<D:propfind xmlns:D="DAV:"><D:prop><D:current-user-privilege-set/></D:prop></D:propfind>"#,
      headers: ["Depth: 0"])
    served.stop()
    #expect(privileges.status == 207 && privileges.body.contains("<D:write-content/>"), "\(privileges.body)")
    #expect(!privileges.body.contains("<D:write/>") && privileges.body.contains("<D:bind/>"), "\(privileges.body)")

    // Derived state is the log's; removing the account removes its books and nothing on the server.
    #expect(try store.run(["rebuild"]).status == 0)
    #expect(try Self.people(try store.objects(["contact", "list", "--book", bookID])) == Self.people(now))
    #expect(try store.run(["verify"]).status == 0)
    #expect(try store.run(["account", "remove", "Home"]).status == 0)
    #expect(try store.objects(["contact", "book", "list"]).map { $0["title"] as? String } == ["Contacts"])
    #expect(try server.get("/ann/friends/cy.vcf").contains("Cy Poe"))
    #expect(try store.run(["verify"]).status == 0)
  }

  /// Another Kalends store as the account: its CardDAV answers through its own privacy gate, so
  /// the address book comes in with the contacts its owner chose for the syncing app, and no
  /// other — and follows when the owner chooses again.
  @Test func anotherKalendsStoresAddressBookComesInAsItsGateAllows() throws {
    let remote = try ServedStore(["--listen", "127.0.0.1:0"])
    defer { remote.stop() }
    var ids: [String: String] = [:]
    for (given, email) in [("Ann", "ann@b.example"), ("Bob", "bob@b.example")] {
      ids[given] = try #require(
        try remote.store.object(["contact", "add", "--given", given, "--email", email])["id"] as? String)
    }
    let app = "dev.kalends.sync"
    try remote.store.object([
      "client", "register", app, "--name", "Kalends sync", "--usage", "calendars-full=Syncs.", "--usage",
      "contacts=Syncs.",
    ])
    try remote.store.object(["access", "set", app, "--service", "calendars", "--status", "full"])
    try remote.store.object([
      "access", "set", app, "--service", "contacts", "--status", "limited", "--contacts", ids["Ann"]!,
    ])
    let secret = try #require(
      try remote.store.object(["client", "token", "create", app, "--label", "a"])["secret"] as? String)
    let address = "http://" + (try #require(remote.tcpAddress))

    let store = try CLIStore()
    let added = try store.run([
      "account", "add", "caldav", address, "--user", "any", "--password-command", "echo \(secret)", "--title", "Peer",
      "--format", "json",
    ])
    #expect(added.status == 0, "\(added.stderr)")
    #expect(added.stdout.contains("\"addressBooksAdded\":1"), "\(added.stdout)")
    let book = try #require(
      try store.objects(["contact", "book", "list"]).first {
        $0["id"] as? String != "00000000-0000-0000-0000-000000000000"
      }?["id"] as? String)
    func people() throws -> [String] {
      try store.objects(["contact", "list", "--book", book]).compactMap {
        ($0["emailAddresses"] as? [[String: Any]])?.first?["value"] as? String
      }
    }
    #expect(try people() == ["ann@b.example"], "only the contact B's owner chose for the syncing app")

    // A change on B to the chosen contact comes with the next sync; one to another does not.
    try remote.store.object(["contact", "update", ids["Ann"]!, "--email", "ann@new.example"])
    try remote.store.object(["contact", "update", ids["Bob"]!, "--email", "bob@new.example"])
    let synced = try store.run(["account", "sync", "--format", "json"])
    #expect(synced.status == 0 && synced.stdout.contains("\"updated\":1"), "\(synced.stdout) \(synced.stderr)")
    #expect(try people() == ["ann@new.example"])

    // A change made here goes out through B's gate, as the syncing app's change on B.
    let annHere = try #require(
      try store.objects(["contact", "list", "--book", book]).first?["id"] as? String)
    try store.object(["contact", "update", annHere, "--email", "ann@from-a.example"])
    let sent = try store.run(["account", "sync", "--format", "json"])
    #expect(sent.status == 0 && sent.stdout.contains("\"sent\":1"), "\(sent.stdout) \(sent.stderr)")
    let onB = try remote.store.object(["contact", "show", ids["Ann"]!])
    #expect(((onB["emailAddresses"] as? [[String: Any]])?.first?["value"] as? String) == "ann@from-a.example")
    let history = try remote.store.objects(["contact", "history", ids["Ann"]!])
    #expect((history.last?["actor"] as? [String: Any])?["id"] as? String == app, "\(String(describing: history.last))")
    #expect(try people() == ["ann@from-a.example"])

    // Changed here again: B answered the first PUT without an ETag (what it stores is its own
    // rendering of the card), so the sync read B's version after it — this change goes under
    // If-Match that version's ETag, is taken, and is no conflict.
    try store.object(["contact", "update", annHere, "--email", "ann@again.example"])
    let again = try store.run(["account", "sync", "--format", "json"])
    #expect(
      again.status == 0 && again.stdout.contains("\"sent\":1") && again.stdout.contains("\"cardConflicts\":[]"),
      "\(again.stdout) \(again.stderr)")
    let againOnB = try remote.store.object(["contact", "show", ids["Ann"]!])
    #expect(((againOnB["emailAddresses"] as? [[String: Any]])?.first?["value"] as? String) == "ann@again.example")
    #expect(try people() == ["ann@again.example"])

    // B's owner gives the app Bob too, then takes Ann back: nothing of either card changed, yet the
    // next syncs bring Bob and take Ann away (B answers the old token as no longer valid).
    try remote.store.object([
      "access", "set", app, "--service", "contacts", "--status", "limited", "--contacts", ids["Ann"]!, ids["Bob"]!,
    ])
    let widened = try store.run(["account", "sync", "--format", "json"])
    #expect(widened.status == 0, "\(widened.stdout) \(widened.stderr)")
    #expect(try people().sorted() == ["ann@again.example", "bob@new.example"])
    try remote.store.object([
      "access", "set", app, "--service", "contacts", "--status", "limited", "--contacts", ids["Bob"]!,
    ])
    #expect(try store.run(["account", "sync"]).status == 0)
    #expect(try people() == ["bob@new.example"])
    #expect(try store.run(["verify"]).status == 0)
  }
}
