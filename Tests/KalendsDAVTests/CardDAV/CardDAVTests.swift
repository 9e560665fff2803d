import Foundation
import KalendsTestSupport
import Testing

/// CardDAV (RFC 6352) through curl, a real server and real processes: the store's contacts as one
/// address book, limited to what each app may use, every refusal recorded, bad cards refused with
/// nothing written.
@Suite("CardDAV: contacts programs as apps under the same rules")
struct CardDAVTests {
  static let book = "/dav/addressbooks/contacts/"

  /// A contact added with the CLI: its id and UID.
  static func contact(_ served: ServedStore, _ arguments: [String]) throws -> (id: String, uid: String) {
    let made = try served.store.object(["contact", "add"] + arguments)
    return (try #require(made["id"] as? String), try #require(made["externalId"] as? String))
  }

  static func query(_ filter: String, version: String = "3.0") -> String {
    """
    <CR:addressbook-query xmlns:D="DAV:" xmlns:CR="urn:ietf:params:xml:ns:carddav">
    <D:prop><D:getetag/><CR:address-data content-type="text/vcard" version="\(version)"/></D:prop>
    <CR:filter\(filter)</CR:filter></CR:addressbook-query>
    """
  }

  /// A query with `CARDDAV:limit` answers at most that many cards, and the address book `507` when
  /// matching cards were left out (RFC 6352 §8.6.1); none when all fit.
  @Test func aQueryWithALimitSaysWhenCardsWereLeftOut() throws {
    let served = try ServedStore(["--listen", "127.0.0.1:0"])
    let base = "http://" + (try #require(served.tcpAddress))
    for family in ["Lovelace", "Turing", "Hopper"] {
      _ = try Self.contact(served, ["--given", "A", "--family", family, "--email", "\(family)@example.com"])
    }
    let token = try served.tokenApp("org.example.cards", access: [])
    try served.store.object(["access", "set", "org.example.cards", "--service", "contacts", "--status", "full"])
    func query(limit: Int) throws -> String {
      let body = Self.query(
        """
        ><CR:prop-filter name="EMAIL"><CR:text-match match-type="ends-with">@example.com</CR:text-match></CR:prop-filter>
        """
      ).replacingOccurrences(
        of: "</CR:filter>", with: "</CR:filter><CR:limit><CR:nresults>\(limit)</CR:nresults></CR:limit>")
      let answer = try ServedStore.request("REPORT", base + Self.book, token: token, body: body, headers: ["Depth: 1"])
      try #require(answer.status == 207, "\(answer.body)")
      return answer.body
    }
    let two = try query(limit: 2)
    #expect(two.components(separatedBy: "BEGIN:VCARD").count - 1 == 2, "\(two)")
    #expect(two.contains("<D:href>\(Self.book)</D:href><D:status>HTTP/1.1 507 Insufficient Storage"), "\(two)")
    let three = try query(limit: 3)
    #expect(three.components(separatedBy: "BEGIN:VCARD").count - 1 == 3, "\(three)")
    // The status, not the digits: a card's random UID or ETag may hold "507".
    #expect(!three.contains("HTTP/1.1 507"), "\(three)")
  }

  @Test func aLimitedAppSeesOnlyTheContactsItWasGivenAndQueriesThem() throws {
    let served = try ServedStore(["--listen", "127.0.0.1:0"])
    let base = "http://" + (try #require(served.tcpAddress))
    let ada = try Self.contact(served, ["--given", "Ada", "--family", "Lovelace", "--email", "ada@example.com"])
    let alan = try Self.contact(served, ["--given", "Alan", "--family", "Turing", "--email", "alan@example.org"])
    let grace = try Self.contact(served, ["--given", "Grace", "--family", "Hopper"])
    let token = try served.tokenApp("org.example.cards", access: [])
    try served.store.object([
      "access", "set", "org.example.cards", "--service", "contacts", "--status", "limited", "--contacts", ada.id,
      "--contacts", alan.id,
    ])

    // Discovery: the principal names the address book home; the home lists the one address book.
    let principal = try ServedStore.request(
      "PROPFIND", base + "/dav/", token: token,
      body: """
        <D:propfind xmlns:D="DAV:" xmlns:CR="urn:ietf:params:xml:ns:carddav"><D:prop><CR:addressbook-home-set/></D:prop></D:propfind>
        """, headers: ["Depth: 0"])
    #expect(principal.body.contains("<D:href>/dav/addressbooks/</D:href>"), "\(principal.body)")
    let listing = try ServedStore.request(
      "PROPFIND", base + Self.book, token: token,
      body: """
        <D:propfind xmlns:D="DAV:" xmlns:CS="http://calendarserver.org/ns/"><D:prop><D:getetag/><CS:getctag/></D:prop></D:propfind>
        """, headers: ["Depth: 1"])
    #expect(listing.status == 207)
    #expect(listing.body.contains(ada.uid) && listing.body.contains(alan.uid), "\(listing.body)")
    #expect(!listing.body.contains(grace.uid), "a contact the app was not given is listed")
    // Not by its path either, and not by multiget.
    let hidden = try ServedStore.request("GET", base + Self.book + grace.uid + ".vcf", token: token)
    #expect(hidden.status == 404 && !hidden.body.contains("Hopper"))
    let multiget = try ServedStore.request(
      "REPORT", base + Self.book, token: token,
      body: """
        <CR:addressbook-multiget xmlns:D="DAV:" xmlns:CR="urn:ietf:params:xml:ns:carddav"><D:prop><CR:address-data/></D:prop>
        <D:href>\(Self.book)\(ada.uid).vcf</D:href><D:href>\(Self.book)\(grace.uid).vcf</D:href></CR:addressbook-multiget>
        """, headers: ["Depth: 1"])
    #expect(multiget.body.contains("Lovelace") && !multiget.body.contains("Hopper"))
    #expect(multiget.body.contains("404 Not Found"))

    // addressbook-query: by email domain, by name, negated, and in vCard 4.0.
    let byDomain = try ServedStore.request(
      "REPORT", base + Self.book, token: token,
      body: Self.query(
        """
        ><CR:prop-filter name="EMAIL"><CR:text-match match-type="ends-with">@example.com</CR:text-match></CR:prop-filter>
        """), headers: ["Depth: 1"])
    #expect(byDomain.body.contains("Lovelace") && !byDomain.body.contains("Turing"), "\(byDomain.body)")
    let notAda = try ServedStore.request(
      "REPORT", base + Self.book, token: token,
      body: Self.query(
        """
         test="allof"><CR:prop-filter name="FN"><CR:text-match negate-condition="yes">ada</CR:text-match></CR:prop-filter>
        """, version: "4.0"), headers: ["Depth: 1"])
    #expect(notAda.body.contains("Turing") && !notAda.body.contains("Lovelace") && !notAda.body.contains("Hopper"))
    #expect(notAda.body.contains("VERSION:4.0"))

    // A card it makes is its own to use; a change of a contact it was not given is refused.
    let card = "BEGIN:VCARD\r\nVERSION:3.0\r\nUID:made-by-app\r\nN:Noether;Emmy;;;\r\nFN:Emmy Noether\r\nEND:VCARD\r\n"
    let made = try ServedStore.request(
      "PUT", base + Self.book + "made-by-app.vcf", token: token, body: card, headers: ["Content-Type: text/vcard"])
    #expect(made.status == 201, "\(made.body)")
    let again = try ServedStore.request("GET", base + Self.book + "made-by-app.vcf", token: token)
    #expect(again.status == 200 && again.body.contains("Noether"))
    let overwrite =
      "BEGIN:VCARD\r\nVERSION:3.0\r\nUID:\(grace.uid)\r\nN:Hacked;Grace;;;\r\nFN:Grace Hacked\r\nEND:VCARD\r\n"
    _ = try ServedStore.request(
      "PUT", base + Self.book + grace.uid + ".vcf", token: token, body: overwrite, headers: ["Content-Type: text/vcard"]
    )
    let stored = try served.store.object(["contact", "show", grace.id])
    #expect(stored["familyName"] as? String == "Hopper", "a contact the app was not given changed")
  }

  @Test func refusedAppsAndBadCardsChangeNothingAndAreRecorded() throws {
    let served = try ServedStore(["--listen", "127.0.0.1:0"])
    let base = "http://" + (try #require(served.tcpAddress))
    let ada = try Self.contact(served, ["--given", "Ada", "--family", "Lovelace"])
    let denied = try served.tokenApp("org.example.denied", access: [])
    try served.store.object(["access", "set", "org.example.denied", "--service", "contacts", "--status", "denied"])
    let refused = try ServedStore.request(
      "PROPFIND", base + Self.book, token: denied, body: DAVClientTests.propfind, headers: ["Depth: 1"])
    #expect(refused.status == 403 && refused.body.contains("need-privileges") && !refused.body.contains(ada.uid))
    let get = try ServedStore.request("GET", base + Self.book + ada.uid + ".vcf", token: denied)
    #expect(get.status == 403 && !get.body.contains("Lovelace"))
    let attempts = try served.records("accessAttemptRefused").filter {
      (($0["actor"] as? [String: Any])?["id"] as? String) == "org.example.denied"
    }
    #expect(!attempts.isEmpty)

    let full = try served.tokenApp("org.example.full", access: [])
    try served.store.object(["access", "set", "org.example.full", "--service", "contacts", "--status", "full"])
    let head = try #require(try served.store.object(["log", "head"])["head"] as? Int)
    let bad: [(String, String, Int, String)] = [
      ("x.vcf", "BEGIN:VCARD\r\nVERSION:2.1\r\nUID:x\r\nEND:VCARD\r\n", 403, "valid-address-data"),
      ("x.vcf", "not a vCard", 403, "valid-address-data"),
      // Ada's UID under another name: refused, naming the card that holds it.
      (
        "other.vcf", "BEGIN:VCARD\r\nVERSION:3.0\r\nUID:\(ada.uid)\r\nFN:X\r\nEND:VCARD\r\n", 409,
        "<D:href>\(Self.book)\(ada.uid).vcf</D:href>"
      ),
      (
        // A group's card without a name.
        "g.vcf", "BEGIN:VCARD\r\nVERSION:4.0\r\nUID:g\r\nKIND:group\r\nMEMBER:urn:uuid:x\r\nEND:VCARD\r\n", 403,
        "valid-address-data"
      ),
      (
        "two.vcf",
        "BEGIN:VCARD\r\nVERSION:3.0\r\nUID:two\r\nFN:A\r\nEND:VCARD\r\nBEGIN:VCARD\r\nVERSION:3.0\r\nUID:three\r\nFN:B\r\nEND:VCARD\r\n",
        403, "valid-address-data"
      ),
    ]
    for (name, body, status, precondition) in bad {
      let answer = try ServedStore.request(
        "PUT", base + Self.book + name, token: full, body: body, headers: ["Content-Type: text/vcard"])
      #expect(answer.status == status && answer.body.contains(precondition), "\(name): \(answer.status) \(answer.body)")
    }
    // A stale If-Match is refused with 412, and none of it wrote a record.
    let current = try ServedStore.request("GET", base + Self.book + ada.uid + ".vcf", token: full)
    #expect(current.status == 200)
    let stale = try ServedStore.request(
      "PUT", base + Self.book + ada.uid + ".vcf", token: full,
      body: "BEGIN:VCARD\r\nVERSION:3.0\r\nUID:\(ada.uid)\r\nN:Byron;Ada;;;\r\nFN:Ada Byron\r\nEND:VCARD\r\n",
      headers: ["Content-Type: text/vcard", "If-Match: \"AAAAAAAAAAAAAAAAAAAAAA\""])
    #expect(stale.status == 412)
    // The reads they made (a UID looked up, the card fetched) are recorded as reads; nothing else
    // (but the counts of the refusals above, when a minute ends meanwhile and they are flushed).
    let written = try served.store.objects(["log", "tail", "-n", "100", "--format", "json"]).filter {
      ($0["position"] as? Int ?? 0) > head
    }
    #expect(
      written.allSatisfy { ["dataRead", "accessAttemptRefused"].contains($0["kind"] as? String) },
      "a refused card wrote a record: \(written)")

    // A card whose UID cannot be a file name is stored under the name the client gave it (as
    // vdirsyncer and DAVx5 do), served from there and listed there, and removed from there.
    let card =
      "BEGIN:VCARD\r\nVERSION:3.0\r\nUID:grace@example.com\r\nN:Hopper;Grace;;;\r\nFN:Grace Hopper\r\nEND:VCARD\r\n"
    let named = base + Self.book + "5f0c-random.vcf"
    let put = try ServedStore.request(
      "PUT", named, token: full, body: card, headers: ["Content-Type: text/vcard", "If-None-Match: *"])
    #expect(put.status == 201, "\(put.body)")
    #expect(try ServedStore.request("GET", named, token: full).body.contains("Grace Hopper"))
    #expect(try ServedStore.request("GET", base + Self.book + "grace%40example.com.vcf", token: full).status == 404)
    let listing = try ServedStore.request(
      "PROPFIND", base + Self.book, token: full, body: DAVClientTests.propfind, headers: ["Depth: 1"])
    #expect(listing.body.contains("<D:href>\(Self.book)5f0c-random.vcf</D:href>"))
    #expect(try ServedStore.request("DELETE", named, token: full).status == 204)
    #expect(try ServedStore.request("GET", named, token: full).status == 404)
  }

  /// `sync-collection` of the body (RFC 6578) from `token`.
  static func sync(_ token: String) -> String {
    """
    <D:sync-collection xmlns:D="DAV:"><D:sync-token>\(token)</D:sync-token><D:sync-level>1</D:sync-level>
    <D:prop><D:getetag/></D:prop></D:sync-collection>
    """
  }

  /// The sync token of a `sync-collection` answer.
  static func syncToken(_ body: String) throws -> String {
    let start = try #require(body.range(of: "<D:sync-token>"))
    let end = try #require(body.range(of: "</D:sync-token>"))
    return String(body[start.upperBound..<end.lowerBound])
  }

  @Test func anAddressBookSyncsWhatChangedForWhatTheAppMayUse() throws {
    let served = try ServedStore(["--listen", "127.0.0.1:0"])
    let base = "http://" + (try #require(served.tcpAddress))
    let ada = try Self.contact(served, ["--given", "Ada", "--family", "Lovelace"])
    let alan = try Self.contact(served, ["--given", "Alan", "--family", "Turing"])
    let token = try served.tokenApp("org.example.sync", access: [])
    try served.store.object([
      "access", "set", "org.example.sync", "--service", "contacts", "--status", "limited", "--contacts", ada.id,
    ])
    let first = try ServedStore.request("REPORT", base + Self.book, token: token, body: Self.sync(""))
    #expect(first.status == 207 && first.body.contains(ada.uid) && !first.body.contains(alan.uid), "\(first.body)")
    let step = try Self.syncToken(first.body)
    // A card the app stores under a name of its own, a change of Ada's by another, a removal, and
    // a change it may not see.
    let card = "BEGIN:VCARD\r\nVERSION:3.0\r\nUID:kay@example.com\r\nN:Kay;Alan;;;\r\nFN:Alan Kay\r\nEND:VCARD\r\n"
    let put = try ServedStore.request(
      "PUT", base + Self.book + "k-name.vcf", token: token, body: card, headers: ["Content-Type: text/vcard"])
    #expect(put.status == 201)
    let removed = try ServedStore.request("DELETE", base + Self.book + "k-name.vcf", token: token)
    #expect(removed.status == 204)
    _ = try served.store.object(["contact", "update", ada.id, "--family", "Byron"])
    _ = try served.store.object(["contact", "update", alan.id, "--family", "Turing-Hidden"])
    let next = try ServedStore.request("REPORT", base + Self.book, token: token, body: Self.sync(step))
    #expect(next.status == 207, "\(next.body)")
    #expect(next.body.contains("<D:href>\(Self.book)\(ada.uid).vcf</D:href><D:propstat>"), "\(next.body)")
    #expect(
      next.body.contains("<D:href>\(Self.book)k-name.vcf</D:href><D:status>HTTP/1.1 404 Not Found"), "\(next.body)")
    #expect(!next.body.contains(alan.uid), "a change the app may not see is told")
    // A token made up, or another app's, is refused.
    let madeUp = try ServedStore.request(
      "REPORT", base + Self.book, token: token, body: Self.sync("urn:kalends:sync:made-up"))
    #expect(madeUp.status == 403 && madeUp.body.contains("valid-sync-token"))
  }
}
