import Foundation
import KalendsTestSupport
import Testing

/// WebDAV dead properties (RFC 4918 §4.2) of calendar objects and cards: whatever a client stores on a
/// resource with PROPPATCH is kept, as written, through a new body, and served back; each change is
/// a fact by the app; an app that may not change the object is refused, recorded, and changes
/// nothing.
@Suite("Dead properties of calendar objects and cards")
struct DAVDeadPropertyTests {
  static let event = """
    BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:t\r\nBEGIN:VEVENT\r\nUID:dead@example.com\r\nDTSTAMP:20260101T000000Z\r
    DTSTART:20261203T100000Z\r\nDTEND:20261203T110000Z\r\nSUMMARY:SUMMARY_TEXT\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n
    """

  static let task = """
    BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:t\r\nBEGIN:VTODO\r\nUID:todo@example.com\r\nDTSTAMP:20260101T000000Z\r
    SUMMARY:Call back\r\nEND:VTODO\r\nEND:VCALENDAR\r\n
    """

  static func update(_ instructions: String) -> String {
    """
    <?xml version="1.0"?><D:propertyupdate xmlns:D="DAV:" xmlns:X="urn:example"
     xmlns:C="urn:ietf:params:xml:ns:caldav">\(instructions)</D:propertyupdate>
    """
  }

  static let propfind = """
    <?xml version="1.0"?><D:propfind xmlns:D="DAV:" xmlns:X="urn:example"><D:prop><D:getetag/><X:mine/><X:other/>
    </D:prop></D:propfind>
    """

  /// The value of `<X:local>` in `body`, or `nil` when it is not there with one.
  static func value(_ local: String, in body: String) -> String? {
    guard let start = body.range(of: "<X:\(local) xmlns:X=\"urn:example\">"),
      let end = body.range(of: "</X:\(local)>", range: start.upperBound..<body.endIndex)
    else { return nil }
    return String(body[start.upperBound..<end.lowerBound])
  }

  @Test func keptThroughANewBodyServedAndRefusedToAppsThatMayNotChangeTheObject() throws {
    let served = try ServedStore(["--listen", "127.0.0.1:0", "--prompt-timeout", "1"])
    let base = "http://" + (try #require(served.tcpAddress))
    let work = try served.store.calendar("Work")
    let full = try served.tokenApp("org.example.full", access: ["--status", "full"])
    let object = base + "/dav/calendars/\(work)/dead%40example.com.ics"
    let put = try ServedStore.request(
      "PUT", object, token: full, body: Self.event.replacingOccurrences(of: "SUMMARY_TEXT", with: "First"),
      headers: ["Content-Type: text/calendar"])
    #expect(put.status == 201, "\(put.body)")

    // Set: a client's own property with markup, and CalDAV's description; served back as written.
    let set = try ServedStore.request(
      "PROPPATCH", object, token: full,
      body: Self.update(
        #"<D:set><D:prop><X:mine>x &amp; y<X:inner a="1">deep</X:inner></X:mine></D:prop></D:set>"#))
    #expect(set.status == 207 && set.body.contains("200 OK") && !set.body.contains("HTTP/1.1 403"), "\(set.body)")
    let found = try ServedStore.request("PROPFIND", object, token: full, body: Self.propfind, headers: ["Depth: 0"])
    #expect(found.status == 207)
    let mine = try #require(Self.value("mine", in: found.body), "\(found.body)")
    #expect(mine.contains("x &amp; y") && mine.contains("deep") && mine.contains(#"a="1""#), "\(mine)")
    #expect(found.body.contains("404 Not Found"), "X:other was never set: \(found.body)")
    let all = try ServedStore.request(
      "PROPFIND", object, token: full, body: #"<D:propfind xmlns:D="DAV:"><D:allprop/></D:propfind>"#,
      headers: ["Depth: 0"])
    #expect(Self.value("mine", in: all.body) != nil, "allprop leaves out the dead property: \(all.body)")
    let saves = try served.records("eventSaved").filter {
      (($0["actor"] as? [String: Any])?["id"] as? String) == "org.example.full"
    }
    #expect(saves.count == 2, "the PUT and the PROPPATCH: \(saves.count)")

    // A new body keeps the resource's properties (RFC 4918 §9.7.1), and a report serves them.
    let replaced = try ServedStore.request(
      "PUT", object, token: full, body: Self.event.replacingOccurrences(of: "SUMMARY_TEXT", with: "Second"),
      headers: ["Content-Type: text/calendar"])
    #expect(replaced.status == 204, "\(replaced.body)")
    let report = try ServedStore.request(
      "REPORT", base + "/dav/calendars/\(work)/", token: full,
      body: """
        <C:calendar-query xmlns:D="DAV:" xmlns:C="urn:ietf:params:xml:ns:caldav" xmlns:X="urn:example"><D:prop>
        <C:calendar-data/><X:mine/></D:prop><C:filter><C:comp-filter name="VCALENDAR"/></C:filter></C:calendar-query>
        """, headers: ["Depth: 1"])
    #expect(report.body.contains("SUMMARY:Second") && Self.value("mine", in: report.body) == mine, "\(report.body)")

    // A live property fails the whole request: 403 for it, 424 for the rest, nothing written.
    let before = try served.store.head()
    let protected = try ServedStore.request(
      "PROPPATCH", object, token: full,
      body: Self.update("<D:set><D:prop><X:other>1</X:other><D:getetag>x</D:getetag></D:prop></D:set>"))
    #expect(protected.status == 207 && protected.body.contains("403 Forbidden"), "\(protected.body)")
    #expect(protected.body.contains("424 Failed Dependency"), "\(protected.body)")
    // More than the 64 a resource keeps: 507, nothing written.
    let many = (0..<65).map { "<X:p\($0)>v</X:p\($0)>" }.joined()
    let crowded = try ServedStore.request(
      "PROPPATCH", object, token: full, body: Self.update("<D:set><D:prop>\(many)</D:prop></D:set>"))
    #expect(crowded.status == 207 && crowded.body.contains("507 Insufficient Storage"), "\(crowded.body)")
    #expect(try served.store.head() == before)
    // More than 64 KiB together (each property under 64 KiB), on the object and on its calendar:
    // 507, nothing written — a change of one small property never records more than 64 KiB of them.
    let large = String(repeating: "x", count: 40 * 1024)
    for target in [object, base + "/dav/calendars/\(work)/"] {
      let heavy = try ServedStore.request(
        "PROPPATCH", target, token: full,
        body: Self.update("<D:set><D:prop><X:big1>\(large)</X:big1><X:big2>\(large)</X:big2></D:prop></D:set>"))
      #expect(
        heavy.status == 207
          && (heavy.body.contains("403 Forbidden") || heavy.body.contains("507 Insufficient Storage")), "\(target)")
      #expect(!heavy.body.contains("200 OK"), "\(target): \(heavy.body)")
    }
    #expect(try served.store.head() == before)

    // Apps that may not change the object: refused, recorded, nothing written, nothing told.
    let writer = try served.tokenApp("org.example.writer", access: ["--status", "write-only"])
    let denied = try served.tokenApp("org.example.denied", access: ["--status", "denied"])
    let elsewhere = try served.store.calendar("Zoo")  // after Work: Work stays the write-only app's
    let chosen = try served.tokenApp("org.example.chosen", access: ["--status", "full", "--calendars", elsewhere])
    for (id, token) in [("org.example.writer", writer), ("org.example.denied", denied)] {
      let refused = try ServedStore.request(
        "PROPPATCH", object, token: token, body: Self.update("<D:set><D:prop><X:mine>taken</X:mine></D:prop></D:set>"))
      #expect(refused.status == 403, "\(id): \(refused.status) \(refused.body)")
      #expect(!refused.body.contains("deep"), "\(id) is told the property: \(refused.body)")
      let attempts = try served.records("accessAttemptRefused").filter {
        (($0["actor"] as? [String: Any])?["id"] as? String) == id
      }
      #expect(!attempts.isEmpty, "\(id)'s refusal is not recorded")
    }
    let unseen = try ServedStore.request(
      "PROPPATCH", object, token: chosen, body: Self.update("<D:set><D:prop><X:mine>taken</X:mine></D:prop></D:set>"))
    #expect(unseen.status == 404, "an app not given the calendar: \(unseen.status) \(unseen.body)")
    #expect(try served.store.head() != before)  // the refusals are records
    let after = try ServedStore.request("PROPFIND", object, token: full, body: Self.propfind, headers: ["Depth: 0"])
    #expect(Self.value("mine", in: after.body) == mine)
    #expect(
      try served.records("eventSaved").allSatisfy {
        (($0["actor"] as? [String: Any])?["id"] as? String) == "org.example.full"
      })

    // Removed: gone from PROPFIND; removing it again succeeds and writes nothing.
    let removed = try ServedStore.request(
      "PROPPATCH", object, token: full, body: Self.update("<D:remove><D:prop><X:mine/></D:prop></D:remove>"))
    #expect(removed.status == 207 && removed.body.contains("200 OK"), "\(removed.body)")
    let gone = try ServedStore.request("PROPFIND", object, token: full, body: Self.propfind, headers: ["Depth: 0"])
    #expect(Self.value("mine", in: gone.body) == nil, "\(gone.body)")
    let head = try served.store.head()
    let again = try ServedStore.request(
      "PROPPATCH", object, token: full, body: Self.update("<D:remove><D:prop><X:mine/></D:prop></D:remove>"))
    #expect(again.status == 207 && again.body.contains("200 OK"))
    #expect(try served.store.head() == head)
  }

  @Test func aTaskKeepsItsPropertiesAndAReadOnlyReminderAppIsRefused() throws {
    let served = try ServedStore(["--listen", "127.0.0.1:0", "--prompt-timeout", "1"])
    let base = "http://" + (try #require(served.tcpAddress))
    let tasks = try served.store.calendar("Tasks", ["--reminders"])
    let full = try served.tokenApp("org.example.tasks", access: [])
    try served.store.object(["access", "set", "org.example.tasks", "--service", "reminders", "--status", "full"])
    let object = base + "/dav/calendars/\(tasks)/todo%40example.com.ics"
    let put = try ServedStore.request(
      "PUT", object, token: full, body: Self.task, headers: ["Content-Type: text/calendar"])
    #expect(put.status == 201, "\(put.body)")
    let set = try ServedStore.request(
      "PROPPATCH", object, token: full, body: Self.update("<D:set><D:prop><X:mine>7</X:mine></D:prop></D:set>"))
    #expect(set.status == 207 && set.body.contains("200 OK"), "\(set.body)")
    let replaced = try ServedStore.request(
      "PUT", object, token: full, body: Self.task.replacingOccurrences(of: "Call back", with: "Call again"),
      headers: ["Content-Type: text/calendar"])
    #expect(replaced.status == 204, "\(replaced.body)")
    let found = try ServedStore.request("PROPFIND", object, token: full, body: Self.propfind, headers: ["Depth: 0"])
    #expect(Self.value("mine", in: found.body) == "7", "\(found.body)")
    #expect(
      try served.records("reminderSaved").filter {
        (($0["actor"] as? [String: Any])?["id"] as? String) == "org.example.tasks"
      }.count == 3)

    let denied = try served.tokenApp("org.example.nothing", access: [])
    try served.store.object(["access", "set", "org.example.nothing", "--service", "reminders", "--status", "denied"])
    let head = try served.store.head()
    let refused = try ServedStore.request(
      "PROPPATCH", object, token: denied, body: Self.update("<D:set><D:prop><X:mine>8</X:mine></D:prop></D:set>"))
    #expect(refused.status == 403, "\(refused.body)")
    #expect(try served.store.head() != head, "the refusal is recorded")
    let after = try ServedStore.request("PROPFIND", object, token: full, body: Self.propfind, headers: ["Depth: 0"])
    #expect(Self.value("mine", in: after.body) == "7")
  }

  @Test func cardsKeepTheirPropertiesAndALimitedAppReachesOnlyItsContacts() throws {
    let served = try ServedStore(["--listen", "127.0.0.1:0", "--prompt-timeout", "1"])
    let base = "http://" + (try #require(served.tcpAddress))
    let ada = try CardDAVTests.contact(served, ["--given", "Ada", "--family", "Lovelace"])
    let grace = try CardDAVTests.contact(served, ["--given", "Grace", "--family", "Hopper"])
    let full = try served.tokenApp("org.example.book", access: [])
    try served.store.object(["access", "set", "org.example.book", "--service", "contacts", "--status", "full"])
    let book = base + CardDAVTests.book
    let card = book + ada.uid + ".vcf"
    let set = try ServedStore.request(
      "PROPPATCH", card, token: full, body: Self.update("<D:set><D:prop><X:mine>ada</X:mine></D:prop></D:set>"))
    #expect(set.status == 207 && set.body.contains("200 OK"), "\(set.body)")
    // A new text keeps them; a query serves them.
    let replaced = try ServedStore.request(
      "PUT", card, token: full,
      body: "BEGIN:VCARD\r\nVERSION:3.0\r\nUID:\(ada.uid)\r\nFN:Ada King\r\nN:King;Ada;;;\r\nEND:VCARD\r\n",
      headers: ["Content-Type: text/vcard"])
    #expect(replaced.status == 204, "\(replaced.body)")
    let query = try ServedStore.request(
      "REPORT", book, token: full,
      body: """
        <CR:addressbook-query xmlns:D="DAV:" xmlns:CR="urn:ietf:params:xml:ns:carddav" xmlns:X="urn:example">
        <D:prop><D:getetag/><CR:address-data/><X:mine/></D:prop><CR:filter><CR:prop-filter name="FN">
        <CR:text-match>King</CR:text-match></CR:prop-filter></CR:filter></CR:addressbook-query>
        """, headers: ["Depth: 1"])
    #expect(query.body.contains("Ada King") && Self.value("mine", in: query.body) == "ada", "\(query.body)")

    // A group's card too.
    let group = try ServedStore.request(
      "PUT", book + "friends.vcf", token: full,
      body:
        "BEGIN:VCARD\r\nVERSION:4.0\r\nUID:friends\r\nKIND:group\r\nFN:Friends\r\nMEMBER:urn:uuid:\(ada.uid)\r\n"
        + "END:VCARD\r\n", headers: ["Content-Type: text/vcard"])
    #expect(group.status == 201, "\(group.body)")
    let tagged = try ServedStore.request(
      "PROPPATCH", book + "friends.vcf", token: full,
      body: Self.update("<D:set><D:prop><X:other>close</X:other></D:prop></D:set>"))
    #expect(tagged.status == 207 && tagged.body.contains("200 OK"), "\(tagged.body)")
    let groupFound = try ServedStore.request(
      "PROPFIND", book + "friends.vcf", token: full, body: Self.propfind, headers: ["Depth: 0"])
    #expect(Self.value("other", in: groupFound.body) == "close", "\(groupFound.body)")
    let groupSaves = try served.records("groupSaved").filter {
      (($0["actor"] as? [String: Any])?["id"] as? String) == "org.example.book"
    }
    #expect(groupSaves.count == 2, "the PUT and the PROPPATCH: \(groupSaves.count)")

    // A limited app given Ada: her card's properties are its to set; Grace's card and the group's
    // are not there for it; nothing of them changes.
    let limited = try served.tokenApp("org.example.limited", access: [])
    try served.store.object([
      "access", "set", "org.example.limited", "--service", "contacts", "--status", "limited", "--contacts", ada.id,
    ])
    let own = try ServedStore.request(
      "PROPPATCH", card, token: limited, body: Self.update("<D:set><D:prop><X:other>1</X:other></D:prop></D:set>"))
    #expect(own.status == 207 && own.body.contains("200 OK"), "\(own.body)")
    let head = try served.store.head()
    for name in [grace.uid + ".vcf", "friends.vcf"] {
      let hidden = try ServedStore.request(
        "PROPPATCH", book + name, token: limited,
        body: Self.update("<D:set><D:prop><X:mine>taken</X:mine></D:prop></D:set>"))
      #expect(hidden.status == 404, "\(name): \(hidden.status) \(hidden.body)")
    }
    #expect(try served.store.head() == head)

    // Denied: refused, recorded, nothing changed.
    let denied = try served.tokenApp("org.example.nobody", access: [])
    try served.store.object(["access", "set", "org.example.nobody", "--service", "contacts", "--status", "denied"])
    let refused = try ServedStore.request(
      "PROPPATCH", card, token: denied, body: Self.update("<D:set><D:prop><X:mine>taken</X:mine></D:prop></D:set>"))
    #expect(refused.status == 403 && !refused.body.contains("ada"), "\(refused.body)")
    #expect(
      !(try served.records("accessAttemptRefused").filter {
        (($0["actor"] as? [String: Any])?["id"] as? String) == "org.example.nobody"
      }.isEmpty))
    let after = try ServedStore.request("PROPFIND", card, token: full, body: Self.propfind, headers: ["Depth: 0"])
    #expect(Self.value("mine", in: after.body) == "ada" && Self.value("other", in: after.body) == "1", "\(after.body)")
  }

  @Test func theAddressBookKeepsItsPropertiesForAppsWithFullAccess() throws {
    let served = try ServedStore(["--listen", "127.0.0.1:0", "--prompt-timeout", "1"])
    let base = "http://" + (try #require(served.tcpAddress))
    let book = base + CardDAVTests.book
    let ada = try CardDAVTests.contact(served, ["--given", "Ada", "--family", "Lovelace"])
    let full = try served.tokenApp("org.example.book", access: [])
    try served.store.object(["access", "set", "org.example.book", "--service", "contacts", "--status", "full"])
    let set = try ServedStore.request(
      "PROPPATCH", book, token: full,
      body: """
        <?xml version="1.0"?><D:propertyupdate xmlns:D="DAV:" xmlns:X="urn:example"
         xmlns:CR="urn:ietf:params:xml:ns:carddav"><D:set><D:prop><X:mine>7</X:mine>
        <CR:addressbook-description>Family and friends</CR:addressbook-description></D:prop></D:set></D:propertyupdate>
        """)
    #expect(set.status == 207 && set.body.contains("200 OK") && !set.body.contains("HTTP/1.1 403"), "\(set.body)")
    #expect(
      try served.records("addressBookSaved").map { (($0["actor"] as? [String: Any])?["id"] as? String) } == [
        "org.example.book"
      ])
    let found = try ServedStore.request(
      "PROPFIND", book, token: full,
      body: """
        <?xml version="1.0"?><D:propfind xmlns:D="DAV:" xmlns:X="urn:example"
         xmlns:CR="urn:ietf:params:xml:ns:carddav"><D:prop><X:mine/><CR:addressbook-description/></D:prop></D:propfind>
        """, headers: ["Depth: 0"])
    #expect(Self.value("mine", in: found.body) == "7", "\(found.body)")
    #expect(found.body.contains("Family and friends"), "\(found.body)")
    // A protected property or an empty title is refused, and the rest with it.
    for refusedName in ["<D:displayname> </D:displayname>", "<D:getetag>x</D:getetag>"] {
      let named = try ServedStore.request(
        "PROPPATCH", book, token: full,
        body: Self.update("<D:set><D:prop>\(refusedName)<X:other>1</X:other></D:prop></D:set>"))
      #expect(
        named.status == 207 && named.body.contains("403 Forbidden") && named.body.contains("424 Failed Dependency"),
        "\(named.body)")
    }
    // Its title is set like a calendar's.
    let titled = try ServedStore.request(
      "PROPPATCH", book, token: full,
      body: Self.update("<D:set><D:prop><D:displayname>Family</D:displayname></D:prop></D:set>"))
    #expect(titled.status == 207 && titled.body.contains("200 OK"), "\(titled.body)")
    let shown = try ServedStore.request(
      "PROPFIND", book, token: full,
      body: #"<D:propfind xmlns:D="DAV:"><D:prop><D:displayname/></D:prop></D:propfind>"#, headers: ["Depth: 0"])
    #expect(shown.body.contains("<D:displayname>Family</D:displayname>"), "\(shown.body)")

    // A limited app sees them, may not set them: refused and recorded.
    let limited = try served.tokenApp("org.example.limited", access: [])
    try served.store.object([
      "access", "set", "org.example.limited", "--service", "contacts", "--status", "limited", "--contacts", ada.id,
    ])
    let seen = try ServedStore.request(
      "PROPFIND", book, token: limited,
      body: #"<D:propfind xmlns:D="DAV:" xmlns:X="urn:example"><D:prop><X:mine/></D:prop></D:propfind>"#,
      headers: ["Depth: 0"])
    #expect(Self.value("mine", in: seen.body) == "7", "\(seen.body)")
    let refused = try ServedStore.request(
      "PROPPATCH", book, token: limited, body: Self.update("<D:set><D:prop><X:mine>8</X:mine></D:prop></D:set>"))
    #expect(refused.status == 403, "\(refused.body)")
    #expect(
      !(try served.records("accessAttemptRefused").filter {
        (($0["actor"] as? [String: Any])?["id"] as? String) == "org.example.limited"
      }.isEmpty))
    #expect(try served.records("addressBookSaved").count == 2)
  }
}
