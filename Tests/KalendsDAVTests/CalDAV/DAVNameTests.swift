import Foundation
import KalendsTestSupport
import Testing

/// The names clients give calendars (`/dav/calendars/NAME/`) are theirs: a name resolves, for a
/// client, to the calendar it made under it (or one the person named so), never to another app's,
/// and making one reveals nothing of who else holds it. A calendar made under a name of the
/// client's own syncs like any other: multiget, getetag and sync by that name.
@Suite("DAV: a client's names and the calendars it makes")
struct DAVNameTests {
  static func event(_ uid: String, _ summary: String, start: String = "20261203T100000Z") -> String {
    """
    BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:t\r\nBEGIN:VEVENT\r\nUID:\(uid)\r\nDTSTAMP:20260101T000000Z\r
    DTSTART:\(start)\r\nDURATION:PT1H\r\nSUMMARY:\(summary)\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n
    """
  }

  static let listing = """
    <?xml version="1.0"?><D:propfind xmlns:D="DAV:"><D:prop><D:getetag/><D:displayname/></D:prop></D:propfind>
    """

  @Test func anAppCannotTakeOverTheNameOfAnotherClientsCalendar() throws {
    let served = try ServedStore(["--listen", "127.0.0.1:0", "--prompt-timeout", "1"])
    let base = "http://" + (try #require(served.tcpAddress))
    let work = try served.store.calendar("Work")
    let person = try served.tokenApp("org.example.thunderbird", access: ["--status", "full"])
    let hostile = try served.tokenApp("org.example.hostile", access: ["--status", "full", "--calendars", work])
    let other = try served.tokenApp("org.example.other", access: ["--status", "full"])

    // The person's client makes `health` and keeps an event there.
    let made = try ServedStore.request("MKCALENDAR", base + "/dav/calendars/health/", token: person)
    #expect(made.status == 201, "\(made.body)")
    let mine = try ServedStore.request(
      "PUT", base + "/dav/calendars/health/mine.ics", token: person, body: Self.event("mine@example.com", "Therapy"),
      headers: ["Content-Type: text/calendar"])
    #expect(mine.status == 201, "\(mine.body)")

    // The app answers alike at the hidden name and at a free one: nothing tells it the name is held.
    let taken = try ServedStore.request("MKCALENDAR", base + "/dav/calendars/health/", token: hostile)
    let free = try ServedStore.request("MKCALENDAR", base + "/dav/calendars/never-used/", token: hostile)
    #expect(taken.status == free.status, "health: \(taken.status) \(taken.body); free: \(free.status)")
    #expect(!taken.body.contains("Therapy") && !taken.body.contains("mine"))
    let seen = try ServedStore.request(
      "PROPFIND", base + "/dav/calendars/health/", token: hostile, body: Self.listing, headers: ["Depth: 1"])
    #expect(!seen.body.contains("mine.ics"), "the app reads the person's calendar: \(seen.body)")
    if taken.status == 201 {
      // The app's own calendar at its name: what it writes there stays there.
      let planted = try ServedStore.request(
        "PUT", base + "/dav/calendars/health/planted.ics", token: hostile,
        body: Self.event("planted@example.com", "Planted"), headers: ["Content-Type: text/calendar"])
      #expect(planted.status == 201, "\(planted.body)")
    }

    // The person's client still finds its own calendar at its name: its event, and nothing planted.
    let listed = try ServedStore.request(
      "PROPFIND", base + "/dav/calendars/health/", token: person, body: Self.listing, headers: ["Depth: 1"])
    #expect(listed.status == 207 && listed.body.contains("mine.ics"), "\(listed.body)")
    #expect(!listed.body.contains("planted"), "the app's object shows under the person's name: \(listed.body)")
    let added = try ServedStore.request(
      "PUT", base + "/dav/calendars/health/second.ics", token: person, body: Self.event("second@example.com", "Second"),
      headers: ["Content-Type: text/calendar"])
    #expect(added.status == 201, "\(added.body)")
    let after = try ServedStore.request(
      "PROPFIND", base + "/dav/calendars/health/", token: hostile, body: Self.listing, headers: ["Depth: 1"])
    #expect(!after.body.contains("second.ics"), "the person's new event landed where the app reads: \(after.body)")

    // In the person's calendar home each calendar has one href: the app's calendar is by its id.
    let home = try ServedStore.request(
      "PROPFIND", base + "/dav/calendars/", token: person, body: Self.listing, headers: ["Depth: 1"])
    let named = home.body.components(separatedBy: "<D:href>/dav/calendars/health/</D:href>").count - 1
    #expect(named == 1, "\(named) calendars at health/: \(home.body)")

    // A third app that never made `health` gets a calendar of its own there, not the person's.
    let third = try ServedStore.request("MKCALENDAR", base + "/dav/calendars/health/", token: other)
    #expect(third.status == 201, "\(third.body)")
    let thirdSees = try ServedStore.request(
      "PROPFIND", base + "/dav/calendars/health/", token: other, body: Self.listing, headers: ["Depth: 1"])
    #expect(!thirdSees.body.contains("mine.ics"), "\(thirdSees.body)")
    // The person's calendar was never written by another app.
    let saves = try served.records("eventSaved").filter {
      (($0["actor"] as? [String: Any])?["id"] as? String) != "org.example.thunderbird"
        && (($0["actor"] as? [String: Any])?["id"] as? String) != "org.example.hostile"
    }
    #expect(saves.isEmpty, "\(saves)")
  }

  @Test func aWriteOnlyAppIsAnsweredAlikeAtAHeldNameAndAFreeOne() throws {
    let served = try ServedStore(["--listen", "127.0.0.1:0", "--prompt-timeout", "1"])
    let base = "http://" + (try #require(served.tcpAddress))
    let work = try served.store.calendar("Work")
    let person = try served.tokenApp("org.example.person", access: ["--status", "full"])
    let writer = try served.tokenApp("org.example.writer", access: ["--status", "write-only"])
    let calendar = base + "/dav/calendars/\(work)/"
    let held = try ServedStore.request(
      "PUT", calendar + "held.ics", token: person, body: Self.event("held@example.com", "Therapy"),
      headers: ["Content-Type: text/calendar"])
    #expect(held.status == 201)

    // At the held name, with the held UID, with If-None-Match: every answer is the free name's.
    var answers: [String: (Int, String)] = [:]
    for (label, name, uid) in [
      ("held name", "held", "new-1@example.com"), ("held UID", "other", "held@example.com"),
      ("free", "free", "new-2@example.com"),
    ] {
      let reply = try ServedStore.request(
        "PUT", calendar + name + ".ics", token: writer, body: Self.event(uid, "Added \(label)"),
        headers: ["Content-Type: text/calendar", "If-None-Match: *"])
      answers[label] = (reply.status, reply.body)
    }
    #expect(Set(answers.values.map(\.0)) == [201], "\(answers)")
    #expect(answers.values.allSatisfy { !$0.1.contains("held") }, "\(answers)")

    // The person's event is as it was, at its name and UID; each added event is stored, apart.
    let mine = try ServedStore.request("GET", calendar + "held.ics", token: person)
    #expect(mine.status == 200 && mine.body.contains("SUMMARY:Therapy") && !mine.body.contains("Added"), "\(mine.body)")
    let all = try ServedStore.request(
      "REPORT", calendar, token: person,
      body: """
        <C:calendar-query xmlns:D="DAV:" xmlns:C="urn:ietf:params:xml:ns:caldav"><D:prop><C:calendar-data/></D:prop>
        <C:filter><C:comp-filter name="VCALENDAR"/></C:filter></C:calendar-query>
        """, headers: ["Depth: 1"])
    for label in ["held name", "held UID", "free"] {
      #expect(all.body.components(separatedBy: "SUMMARY:Added \(label)").count - 1 == 1, "\(label): \(all.body)")
    }
    #expect(all.body.components(separatedBy: "UID:held@example.com\r\n").count - 1 == 1, "one object holds the UID")
  }

  static func card(_ uid: String, _ name: String, phone: String) -> String {
    "BEGIN:VCARD\r\nVERSION:3.0\r\nUID:\(uid)\r\nFN:\(name)\r\nN:\(name);;;;\r\nTEL:\(phone)\r\nEND:VCARD\r\n"
  }

  @Test func anAppGivenSomeContactsCannotTakeOverTheNameOfAnother() throws {
    let served = try ServedStore(["--listen", "127.0.0.1:0"])
    let base = "http://" + (try #require(served.tcpAddress))
    let book = base + CardDAVTests.book
    let ada = try CardDAVTests.contact(served, ["--given", "Ada", "--family", "Lovelace", "--phone", "+44 1"])
    let grace = try CardDAVTests.contact(served, ["--given", "Grace", "--family", "Hopper", "--phone", "+1 555"])
    let person = try served.tokenApp("org.example.khard", access: [])
    try served.store.object(["access", "set", "org.example.khard", "--service", "contacts", "--status", "full"])
    let hostile = try served.tokenApp("org.example.limited", access: [])
    try served.store.object([
      "access", "set", "org.example.limited", "--service", "contacts", "--status", "limited", "--contacts", ada.id,
    ])
    let before = try ServedStore.request("GET", book + grace.uid + ".vcf", token: person)
    #expect(before.status == 200 && before.body.contains("Hopper"), "\(before.body)")

    // The app stores a card at Grace's name, with Grace's UID too: answered as at a free name.
    let planted = try ServedStore.request(
      "PUT", book + grace.uid + ".vcf", token: hostile, body: Self.card(grace.uid, "Grace Hopper", phone: "+1 666"),
      headers: ["Content-Type: text/vcard"])
    let free = try ServedStore.request(
      "PUT", book + "never-used.vcf", token: hostile, body: Self.card("never-used", "Someone", phone: "+1 777"),
      headers: ["Content-Type: text/vcard"])
    #expect(planted.status == free.status && planted.status == 201, "\(planted.status) \(planted.body)")
    #expect(!planted.body.contains(grace.uid + ".vcf") && !planted.body.contains("Hopper"), "\(planted.body)")

    // The person's client still reads Grace's own card there, and lists one card at that name.
    let after = try ServedStore.request("GET", book + grace.uid + ".vcf", token: person)
    #expect(after.status == 200 && after.body.contains("+1 555") && !after.body.contains("+1 666"), "\(after.body)")
    let listing = try ServedStore.request(
      "PROPFIND", book, token: person, body: Self.listing, headers: ["Depth: 1"])
    let atName = listing.body.components(separatedBy: "<D:href>\(CardDAVTests.book)\(grace.uid).vcf</D:href>").count - 1
    #expect(atName == 1, "\(atName) cards at Grace's name: \(listing.body)")
    let sync = try ServedStore.request("REPORT", book, token: person, body: CardDAVTests.sync(""))
    #expect(sync.body.components(separatedBy: "\(grace.uid).vcf</D:href>").count - 1 == 1, "\(sync.body)")
    // The app's own card is the person's to see, at a name of its own, and readable there.
    let alias = try #require(
      listing.body.range(of: "\(CardDAVTests.book)kalends-").map { range in
        String(listing.body[range.lowerBound...].prefix { $0 != "<" })
      }, "\(listing.body)")
    let aliased = try ServedStore.request("GET", base + alias, token: person)
    #expect(aliased.status == 200 && aliased.body.contains("+1 666"), "\(alias): \(aliased.body)")

    // The app finds its own card at the name it used; its DELETE there removes its own, never Grace.
    let own = try ServedStore.request("GET", book + grace.uid + ".vcf", token: hostile)
    #expect(own.status == 200 && own.body.contains("+1 666"), "\(own.body)")
    let removed = try ServedStore.request("DELETE", book + grace.uid + ".vcf", token: hostile)
    #expect(removed.status == 204, "\(removed.body)")
    let again = try ServedStore.request("DELETE", book + grace.uid + ".vcf", token: hostile)
    let never = try ServedStore.request("DELETE", book + "never-made.vcf", token: hostile)
    #expect(again.status == never.status, "\(again.status) vs \(never.status)")
    let last = try ServedStore.request("GET", book + grace.uid + ".vcf", token: person)
    #expect(last.status == 200 && last.body.contains("+1 555"), "\(last.body)")
    let removals = try served.records("contactRemoved").filter {
      (($0["payload"] as? [String: Any])?["id"] as? String) == grace.id
    }
    #expect(removals.isEmpty, "Grace was removed: \(removals)")
  }

  @Test func aCalendarMadeUnderAClientsOwnNameSyncsByThatName() throws {
    let served = try ServedStore(["--listen", "127.0.0.1:0", "--prompt-timeout", "1"])
    let base = "http://" + (try #require(served.tcpAddress))
    let token = try served.tokenApp("org.example.davx5", access: ["--status", "full"])
    let calendar = base + "/dav/calendars/work-laptop/"
    #expect(try ServedStore.request("MKCALENDAR", calendar, token: token).status == 201)
    let put = try ServedStore.request(
      "PUT", calendar + "a%40example.com.ics", token: token, body: Self.event("a@example.com", "Standup"),
      headers: ["Content-Type: text/calendar"])
    #expect(put.status == 201, "\(put.body)")

    // sync-collection names the object by the calendar's name; multiget of that href answers it.
    let sync = try ServedStore.request(
      "REPORT", calendar, token: token,
      body: """
        <D:sync-collection xmlns:D="DAV:"><D:sync-token/><D:sync-level>1</D:sync-level><D:prop><D:getetag/></D:prop>
        </D:sync-collection>
        """, headers: ["Depth: 1"])
    #expect(sync.body.contains("/dav/calendars/work-laptop/a%40example.com.ics"), "\(sync.body)")
    let multiget = try ServedStore.request(
      "REPORT", calendar, token: token,
      body: """
        <C:calendar-multiget xmlns:D="DAV:" xmlns:C="urn:ietf:params:xml:ns:caldav"><D:prop><D:getetag/>
        <C:calendar-data/></D:prop><D:href>/dav/calendars/work-laptop/a%40example.com.ics</D:href>
        <D:href>/dav/calendars/work-laptop/none.ics</D:href></C:calendar-multiget>
        """, headers: ["Depth: 1"])
    #expect(multiget.status == 207 && multiget.body.contains("SUMMARY:Standup"), "\(multiget.body)")
    #expect(multiget.body.contains("/dav/calendars/work-laptop/none.ics"), "\(multiget.body)")
    #expect(multiget.body.components(separatedBy: "404 Not Found").count == 2, "only none.ics is missing")
    // The entity tag multiget gives is the one a conditional write holds to.
    let etag = try #require(
      multiget.body.range(of: #"<D:getetag>"#).map { range in
        String(multiget.body[range.upperBound...].prefix { $0 != "<" })
      })
    let replaced = try ServedStore.request(
      "PUT", calendar + "a%40example.com.ics", token: token, body: Self.event("a@example.com", "Moved"),
      headers: ["Content-Type: text/calendar", "If-Match: \(etag.replacingOccurrences(of: "&quot;", with: "\""))"])
    #expect(replaced.status == 204, "\(etag): \(replaced.status) \(replaced.body)")
  }

  @Test func discoveryRedirectsWith301() throws {
    let served = try ServedStore(["--listen", "127.0.0.1:0"])
    let base = "http://" + (try #require(served.tcpAddress))
    for path in ["/.well-known/caldav", "/.well-known/carddav"] {
      let result = try CLI.run(
        ["-s", "-o", "/dev/null", "-X", "PROPFIND", "-w", "%{http_code} %{redirect_url}", base + path],
        program: try ServedStore.curl())
      #expect(result.stdout == "301 \(base)/dav/", "\(path): \(result.stdout)")
    }
  }

  @Test func anOpenEndedTimeRangeLeavesOutASeriesThatEndedBeforeIt() throws {
    let served = try ServedStore(["--listen", "127.0.0.1:0"])
    let base = "http://" + (try #require(served.tcpAddress))
    let work = try served.store.calendar("Work")
    let token = try served.tokenApp("org.example.range", access: ["--status", "full"])
    // Weekly, four times: 6, 13, 20 and 27 April 2026.
    let series = Self.event("series@example.com", "Course", start: "20260406T090000Z")
      .replacingOccurrences(of: "DURATION:PT1H\r\n", with: "DURATION:PT1H\r\nRRULE:FREQ=WEEKLY;COUNT=4\r\n")
    let put = try ServedStore.request(
      "PUT", base + "/dav/calendars/\(work)/series.ics", token: token, body: series,
      headers: ["Content-Type: text/calendar"])
    #expect(put.status == 201, "\(put.body)")
    func query(_ range: String) throws -> String {
      try ServedStore.request(
        "REPORT", base + "/dav/calendars/\(work)/", token: token,
        body: """
          <C:calendar-query xmlns:D="DAV:" xmlns:C="urn:ietf:params:xml:ns:caldav"><D:prop><D:getetag/></D:prop>
          <C:filter><C:comp-filter name="VCALENDAR"><C:comp-filter name="VEVENT"><C:time-range \(range)/>
          </C:comp-filter></C:comp-filter></C:filter></C:calendar-query>
          """, headers: ["Depth: 1"]
      ).body
    }
    #expect(!(try query(#"start="20260428T000000Z""#)).contains("series.ics"), "after its last occurrence")
    #expect(try query(#"start="20260427T093000Z""#).contains("series.ics"), "during its last occurrence")
    #expect(try query(#"end="20260406T100000Z""#).contains("series.ics"), "an end alone, during the first")
    #expect(!(try query(#"end="20260406T090000Z""#)).contains("series.ics"), "an end alone, before the first")
  }

  @Test func deadPropertyNamesThatAreNotQualifiedXMLNamesAreRefused() throws {
    let served = try ServedStore(["--listen", "127.0.0.1:0"])
    let base = "http://" + (try #require(served.tcpAddress))
    let work = try served.store.calendar("Work")
    let token = try served.tokenApp("org.example.props", access: ["--status", "full", "--calendars", work])
    let before = try served.store.head()
    for name in ["Y:a:b", "Z:1x", "Z:-x", "Z:.x"] {
      let result = try ServedStore.request(
        "PROPPATCH", base + "/dav/calendars/\(work)/", token: token,
        body: """
          <?xml version="1.0"?><D:propertyupdate xmlns:D="DAV:" xmlns:Y="urn:y" xmlns:Z="urn:z"><D:set><D:prop>\
          <\(name)>v</\(name)></D:prop></D:set></D:propertyupdate>
          """)
      #expect(result.status == 400, "\(name): \(result.status) \(result.body)")
    }
    #expect(try served.store.head() == before, "nothing is written")
    // A well-formed name is kept, and the home stays well-formed XML for every client.
    let kept = try ServedStore.request(
      "PROPPATCH", base + "/dav/calendars/\(work)/", token: token,
      body: """
        <?xml version="1.0"?><D:propertyupdate xmlns:D="DAV:" xmlns:Z="urn:z"><D:set><D:prop>\
        <Z:x-1.b>v</Z:x-1.b></D:prop></D:set></D:propertyupdate>
        """)
    #expect(kept.status == 207 && kept.body.contains("200 OK"), "\(kept.body)")
    let home = try ServedStore.request(
      "PROPFIND", base + "/dav/calendars/", token: token,
      body: #"<D:propfind xmlns:D="DAV:"><D:allprop/></D:propfind>"#,
      headers: ["Depth: 1"])
    let parsed = try CLI.run(
      [
        "python3", "-c",
        "import sys, xml.dom.minidom; xml.dom.minidom.parseString(sys.stdin.buffer.read()); print('ok')",
      ],
      stdin: home.body, program: URL(fileURLWithPath: "/usr/bin/env"))
    #expect(parsed.stdout.contains("ok") && home.body.contains("x-1.b"), "\(parsed.stderr) \(home.body)")
  }
}
