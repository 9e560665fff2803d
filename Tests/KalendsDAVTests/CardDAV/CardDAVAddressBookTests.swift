import Foundation
import KalendsTestSupport
import Testing

/// Address books a client makes itself (extended MKCOL, RFC 5689), each a contacts container with
/// its own names, sync and tag — through curl, vdirsyncer and a real server; what an app may not
/// see of them stays unseen, and every refusal is recorded.
@Suite("CardDAV: address books clients make")
struct CardDAVAddressBookTests {
  static let mkcol = """
    <?xml version="1.0"?><D:mkcol xmlns:D="DAV:" xmlns:CR="urn:ietf:params:xml:ns:carddav"><D:set><D:prop>
    <D:resourcetype><D:collection/><CR:addressbook/></D:resourcetype><D:displayname>Friends</D:displayname>
    <CR:addressbook-description>People I know</CR:addressbook-description></D:prop></D:set></D:mkcol>
    """

  static func card(_ uid: String, _ name: String) -> String {
    "BEGIN:VCARD\r\nVERSION:3.0\r\nUID:\(uid)\r\nFN:\(name)\r\nN:\(name);;;;\r\nEND:VCARD\r\n"
  }

  static let listing = """
    <D:propfind xmlns:D="DAV:" xmlns:CS="http://calendarserver.org/ns/"><D:prop><D:displayname/><D:resourcetype/>
    <CS:getctag/><D:sync-token/></D:prop></D:propfind>
    """

  @Test func aClientMakesAnAddressBookSyncsItAndRemovesIt() throws {
    let served = try ServedStore(["--listen", "127.0.0.1:0"])
    let base = "http://" + (try #require(served.tcpAddress))
    let token = try served.tokenApp("org.example.cards", access: [])
    try served.store.object(["access", "set", "org.example.cards", "--service", "contacts", "--status", "full"])
    let home = base + "/dav/addressbooks/"

    // Made where it asks; the same name again, or another kind of collection, is refused.
    let made = try ServedStore.request("MKCOL", home + "friends/", token: token, body: Self.mkcol)
    #expect(made.status == 201, "\(made.body)")
    let again = try ServedStore.request("MKCOL", home + "friends/", token: token, body: Self.mkcol)
    #expect(again.status == 405 && again.body.contains("resource-must-be-null"), "\(again.body)")
    let calendarKind = try ServedStore.request(
      "MKCOL", home + "cal/", token: token,
      body: Self.mkcol.replacingOccurrences(
        of: "<CR:addressbook/>", with: "<C:calendar xmlns:C=\"urn:ietf:params:xml:ns:caldav\"/>"))
    #expect(calendarKind.status == 403 && calendarKind.body.contains("valid-resourcetype"))
    let plain = try ServedStore.request("MKCOL", home + "plain/", token: token)
    #expect(plain.status == 403 && plain.body.contains("valid-resourcetype"))
    let protected = try ServedStore.request(
      "MKCOL", home + "odd/", token: token,
      body: Self.mkcol.replacingOccurrences(
        of: "<D:displayname>Friends</D:displayname>", with: "<D:getetag>x</D:getetag>"))
    #expect(protected.status == 403 && protected.body.contains("424 Failed Dependency"), "\(protected.body)")
    #expect(try served.records("addressBookSaved").count == 1)

    // The home lists both books, each with its own title.
    let listed = try ServedStore.request("PROPFIND", home, token: token, body: Self.listing, headers: ["Depth: 1"])
    #expect(listed.body.contains("<D:href>/dav/addressbooks/contacts/</D:href>"), "\(listed.body)")
    #expect(listed.body.contains("<D:href>/dav/addressbooks/friends/</D:href>"))
    #expect(listed.body.contains("<D:displayname>Friends</D:displayname>"))
    #expect(listed.body.contains("<D:displayname>Contacts</D:displayname>"))

    // One UID in each book, at one name: two cards, each found only in its own book.
    let inFriends = try ServedStore.request(
      "PUT", home + "friends/ann.vcf", token: token, body: Self.card("ann", "Ann Friend"),
      headers: ["Content-Type: text/vcard", "If-None-Match: *"])
    #expect(inFriends.status == 201, "\(inFriends.body)")
    let inLocal = try ServedStore.request(
      "PUT", home + "contacts/ann.vcf", token: token, body: Self.card("ann", "Ann Local"),
      headers: ["Content-Type: text/vcard", "If-None-Match: *"])
    #expect(inLocal.status == 201, "\(inLocal.body)")
    #expect(try ServedStore.request("GET", home + "friends/ann.vcf", token: token).body.contains("Ann Friend"))
    #expect(try ServedStore.request("GET", home + "contacts/ann.vcf", token: token).body.contains("Ann Local"))

    // multiget and sync in the book the client made (the calendars' 404 of last wave, here).
    let multiget = try ServedStore.request(
      "REPORT", home + "friends/", token: token,
      body: """
        <CR:addressbook-multiget xmlns:D="DAV:" xmlns:CR="urn:ietf:params:xml:ns:carddav"><D:prop><D:getetag/>
        <CR:address-data/></D:prop><D:href>/dav/addressbooks/friends/ann.vcf</D:href>
        <D:href>/dav/addressbooks/contacts/ann.vcf</D:href></CR:addressbook-multiget>
        """, headers: ["Depth: 1"])
    #expect(multiget.body.contains("Ann Friend") && !multiget.body.contains("Ann Local"), "\(multiget.body)")
    #expect(multiget.body.contains("<D:href>/dav/addressbooks/contacts/ann.vcf</D:href>"))
    let synced = try ServedStore.request(
      "REPORT", home + "friends/", token: token, body: CardDAVTests.sync(""), headers: ["Depth: 1"])
    #expect(
      synced.body.contains("<D:href>/dav/addressbooks/friends/ann.vcf</D:href>")
        && !synced.body.contains("contacts/ann.vcf"), "\(synced.body)")
    let token1 = try CardDAVTests.syncToken(synced.body)
    _ = try ServedStore.request(
      "PUT", home + "contacts/bob.vcf", token: token, body: Self.card("bob", "Bob Local"),
      headers: ["Content-Type: text/vcard"])
    let quiet = try ServedStore.request(
      "REPORT", home + "friends/", token: token, body: CardDAVTests.sync(token1), headers: ["Depth: 1"])
    #expect(!quiet.body.contains("Bob") && !quiet.body.contains("ann.vcf"), "\(quiet.body)")

    // The person sees it by its title, and its cards there.
    let books = try served.store.objects(["contact", "book", "list"])
    #expect(books.map { $0["title"] as? String } == ["Contacts", "Friends"])
    #expect(books.last?["creator"] as? String == "org.example.cards")
    let friends = try served.store.objects(["contact", "list", "--book", "Friends"])
    #expect(friends.map { $0["displayName"] as? String } == ["Ann Friend"])

    // DELETE removes the book and its cards in one transaction; the local one stays.
    let local = try ServedStore.request("DELETE", home + "contacts/", token: token)
    #expect(local.status == 403)
    let removed = try ServedStore.request("DELETE", home + "friends/", token: token)
    #expect(removed.status == 204, "\(removed.body)")
    #expect(try ServedStore.request("GET", home + "friends/ann.vcf", token: token).status == 404)
    #expect(try served.records("addressBookRemoved").count == 1)
    #expect(try served.store.objects(["contact", "list"]).count == 2)
  }

  @Test func aLimitedAppNeitherSeesNorMakesAnotherBookAndIsRecorded() throws {
    let served = try ServedStore(["--listen", "127.0.0.1:0"])
    let base = "http://" + (try #require(served.tcpAddress))
    let home = base + "/dav/addressbooks/"
    try served.store.object(["contact", "book", "add", "Therapy clients", "--dav-name", "therapy"])
    let secret = try CardDAVTests.contact(served, ["--given", "Hidden", "--family", "Client", "--book", "therapy"])
    let given = try CardDAVTests.contact(served, ["--given", "Ada", "--family", "Lovelace"])
    let token = try served.tokenApp("org.example.limited", access: [])
    try served.store.object([
      "access", "set", "org.example.limited", "--service", "contacts", "--status", "limited", "--contacts", given.id,
    ])

    let listed = try ServedStore.request("PROPFIND", home, token: token, body: Self.listing, headers: ["Depth: 1"])
    #expect(listed.status == 207 && listed.body.contains("/dav/addressbooks/contacts/"), "\(listed.body)")
    #expect(!listed.body.contains("therapy") && !listed.body.contains("Therapy"), "\(listed.body)")
    for path in ["therapy/", "therapy/\(secret.uid).vcf"] {
      let hidden = try ServedStore.request(
        path.hasSuffix("/") ? "PROPFIND" : "GET", home + path, token: token,
        body: path.hasSuffix("/") ? Self.listing : nil,
        headers: ["Depth: 0"])
      #expect(hidden.status == 404 && !hidden.body.contains("Hidden"), "\(path): \(hidden.body)")
    }
    // Making a book is refused and recorded, whether or not the name is held; nothing is written.
    let before = try served.records("addressBookSaved").count
    for name in ["therapy", "mine"] {
      let refused = try ServedStore.request("MKCOL", home + "\(name)/", token: token, body: Self.mkcol)
      #expect(refused.status == 403, "\(name): \(refused.body)")
    }
    #expect(try served.records("addressBookSaved").count == before)
    #expect(
      try served.records("accessAttemptRefused").contains {
        (($0["actor"] as? [String: Any])?["id"] as? String) == "org.example.limited"
      })
    #expect(try ServedStore.request("DELETE", home + "therapy/", token: token).status == 404)
    #expect(try served.store.objects(["contact", "list", "--book", "therapy"]).count == 1)
  }

  @Test func vdirsyncerMakesItsOwnAddressBookAndSyncsItBothWays() throws {
    let served = try ServedStore(["--listen", "127.0.0.1:0"])
    let base = "http://" + (try #require(served.tcpAddress))
    let secret = try served.tokenApp("org.pimutils.vdirsyncer", access: [])
    try served.store.object(["access", "set", "org.pimutils.vdirsyncer", "--service", "contacts", "--status", "full"])
    let work = TemporaryDirectory("books")
    let script = DAVSyncClientTests.script.replacingOccurrences(of: "dav_sync_check.py", with: "dav_book_check.py")

    let first = try CLI.run(
      ["python3", script, base, secret, work.path, "first"], program: URL(fileURLWithPath: "/usr/bin/env"))
    #expect(first.status == 0, "\(first.stderr)")
    let books = try served.store.objects(["contact", "book", "list"])
    #expect(books.map { $0["davName"] as? String } == ["contacts", "friends"], "\(books)")
    #expect(books.last?["creator"] as? String == "org.pimutils.vdirsyncer")
    let cards = try served.store.objects(["contact", "list", "--book", "friends"])
    #expect(cards.map { $0["displayName"] as? String } == ["Bea Local"])

    // The person adds a contact to that book; the next sync brings it to the folder.
    try served.store.object(["contact", "add", "--given", "Cy", "--family", "There", "--book", "friends"])
    let again = try CLI.run(
      ["python3", script, base, secret, work.path, "again"], program: URL(fileURLWithPath: "/usr/bin/env"))
    #expect(again.status == 0, "\(again.stderr)")
    let summary = try #require(try json(again.stdout) as? [String: Any])
    #expect((summary["localCards"] as? [String])?.count == 2, "\(summary)")
    #expect((summary["localBooks"] as? [String])?.contains("friends") == true)
  }
}
