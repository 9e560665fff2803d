import Foundation
import KalendsTestSupport
import Testing

/// What a push tells, and to whom, beyond delivery itself: `Push-Dont-Notify` spares a client its
/// own change (and no app can spare another), an alarm due soon makes a push urgent, the audit
/// counts what each app was told, per collection — not the delivery's looks as the app's reads —,
/// content and property updates reach who asked for each, and an account's sync is pushed.
@Suite("WebDAV-Push: Push-Dont-Notify, urgency, triggers, syncs, and what the audit says was told")
struct DAVPushNoticeTests {
  @Test func aClientIsSparedItsOwnChangeAlarmsSoonAreUrgentAndTheAuditCountsNotices() throws {
    let (served, receiver, base) = try DAVPushDeliveryTests.served()
    defer { served.stop() }
    let store = served.store
    let work = try store.calendar("Work")
    let phone = try served.tokenApp("org.example.phone", access: ["--status", "full"])
    let laptop = try served.tokenApp("org.example.laptop", access: ["--status", "full"])
    func register(_ token: String, _ path: String) throws -> String {
      let answer = try receiver.register(token, on: base + "/dav/calendars/\(work)/", path)
      try #require(answer.0 == 201, "\(answer)")
      return try #require(answer.1["location"])
    }
    let phoneSyncing = try register(phone, "/ok/phone-syncing")
    _ = try register(phone, "/ok/phone-other")
    let laptopRegistration = try register(laptop, "/ok/laptop")
    Thread.sleep(forTimeInterval: 0.5)

    func put(_ token: String, _ uid: String, dontNotify: String?) throws {
      let event =
        "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//t//EN\r\nBEGIN:VEVENT\r\nUID:\(uid)\r\n"
        + "DTSTAMP:20261130T090000Z\r\nDTSTART:20261210T090000Z\r\nSUMMARY:\(uid)\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n"
      var headers = ["Content-Type: text/calendar"]
      if let dontNotify { headers.append("Push-Dont-Notify: \(dontNotify)") }
      let answer = try ServedStore.request(
        "PUT", base + "/dav/calendars/\(work)/\(uid).ics", token: token, body: event, headers: headers)
      try #require(answer.status == 201, "\(answer)")
    }

    // The phone writes naming its syncing registration (as an absolute URL, as DAVx⁵ sends it):
    // the laptop and the phone's other registration are told, the syncing one is not.
    try put(phone, "from-phone", dontNotify: "\"\(base)\(phoneSyncing)\"")
    #expect(try receiver.wait(for: 1, to: "/ok/laptop").count == 1)
    #expect(try receiver.wait(for: 1, to: "/ok/phone-other").count == 1)
    Thread.sleep(forTimeInterval: 1.0)
    #expect(try receiver.pushes("/ok/phone-syncing").isEmpty, "spared its own change")

    // An app naming another app's registration spares it nothing.
    try put(phone, "phone-names-laptop", dontNotify: "\"\(laptopRegistration)\"")
    #expect(try receiver.wait(for: 2, to: "/ok/laptop", seconds: 6).count == 2)
    // `*` spares every registration of the writing app, and only its own.
    try put(laptop, "from-laptop", dontNotify: "*")
    #expect(try receiver.wait(for: 1, to: "/ok/phone-syncing", seconds: 6).count == 1)
    Thread.sleep(forTimeInterval: 1.0)
    #expect(try receiver.pushes("/ok/laptop").count == 2, "spared its own change")

    // An event with an alarm due within 15 minutes is pushed urgent; one next month is not.
    let soon = Date().addingTimeInterval(600)
    let format = DateFormatter()
    format.dateFormat = "yyyy-MM-dd'T'HH:mm"
    format.timeZone = TimeZone(identifier: "UTC")
    let before = try receiver.pushes("/ok/laptop").count
    try store.object([
      "event", "add", "--calendar", work, "--title", "Call", "--start", format.string(from: soon), "--tz", "UTC",
      "--alarm", "-5m",
    ])
    let urgent = try receiver.wait(for: before + 1, to: "/ok/laptop", seconds: 6)
    #expect(urgent.last?["urgency"] as? String == "high", "\(urgent.last ?? [:])")
    Thread.sleep(forTimeInterval: 2.5)  // Past the registration's spacing.
    try store.object([
      "event", "add", "--calendar", work, "--title", "Later", "--start", "2027-01-10T09:00", "--alarm", "-5m",
    ])
    let normal = try receiver.wait(for: before + 2, to: "/ok/laptop", seconds: 6)
    #expect(normal.count == before + 2 && normal.last?["urgency"] as? String == "normal", "\(normal.last ?? [:])")

    // The audit: the laptop was told of changes to Work — counted as what it was told, not as
    // reads of the calendar it never made. (A stopped server has counted every minute's uses.)
    Thread.sleep(forTimeInterval: 0.5)
    served.stop()
    let uses = try store.objects(["audit", "uses", "--client", "org.example.laptop"])
    let told = uses.filter { ($0["operation"] as? String) == "be told of changes by push" }
    #expect(!told.isEmpty, "\(uses)")
    #expect(told.allSatisfy { "\($0)".contains(work) }, "\(told)")
    let count = told.reduce(0) { $0 + ($1["count"] as? Int ?? 0) }
    #expect(count >= 4, "four changes it was told of, at least: \(told)")
    let looks = uses.filter { ($0["operation"] as? String) == "read a calendar's state" }
    #expect(looks.isEmpty, "the delivery's looks are not the app's reads: \(uses)")
    // `push list` says the same of the registration: told how often since it was made, and when.
    let listed = try #require(
      try store.objects(["push", "list"]).first { $0["client"] as? String == "org.example.laptop" })
    #expect((listed["told"] as? Int ?? 0) >= 4 && listed["lastTold"] as? String != nil, "\(listed)")
    #expect(try store.run(["verify"]).status == 0)
  }

  /// A registration asks for content updates, property updates or both (`trigger`): a renamed
  /// calendar is a `property-update` to those that asked for it, a new event a `content-update`
  /// with the sync token to those that asked for that, and nothing to the others.
  @Test func contentAndPropertyUpdatesReachWhoAskedForThem() throws {
    let (served, receiver, base) = try DAVPushDeliveryTests.served()
    defer { served.stop() }
    let store = served.store
    let work = try store.calendar("Work")
    let app = try served.tokenApp("org.example.viewer", access: ["--status", "full"])
    func register(_ path: String, triggers: String) throws -> Int {
      try receiver.register(app, on: base + "/dav/calendars/\(work)/", path, triggers: triggers).0
    }
    let content = "<P:content-update><D:depth>1</D:depth></P:content-update>"
    let property = "<P:property-update><D:depth>0</D:depth></P:property-update>"
    #expect(try register("/ok/content", triggers: content) == 201)
    #expect(try register("/ok/property", triggers: property) == 201)
    #expect(try register("/ok/both", triggers: content + property) == 201)
    #expect(try register("/ok/neither", triggers: "") == 403, "a trigger naming nothing is refused")
    let supported = try ServedStore.request(
      "PROPFIND", base + "/dav/calendars/\(work)/", token: app,
      body:
        #"<D:propfind xmlns:D="DAV:" xmlns:P="https://bitfire.at/webdav-push"><D:prop><P:supported-triggers/></D:prop></D:propfind>"#,
      headers: ["Depth: 0"])
    #expect(supported.body.contains("property-update") && supported.body.contains("content-update"))
    Thread.sleep(forTimeInterval: 0.5)

    // Renamed: the property registrations hear of it, without a sync token; content hears nothing.
    try store.object(["calendar", "update", work, "--title", "Office"])
    let renamed = try receiver.wait(for: 1, to: "/ok/property")
    let message = try #require(renamed.first?["message"] as? String)
    #expect(message.contains("<P:property-update>") && !message.contains("content-update"), "\(message)")
    #expect(try receiver.wait(for: 1, to: "/ok/both").count == 1)
    Thread.sleep(forTimeInterval: 1.5)
    #expect(try receiver.pushes("/ok/content").isEmpty, "a rename is no content update")

    // A new event: the content registrations hear of it with a sync token; property hears nothing.
    try store.object(["event", "add", "--calendar", work, "--title", "Standup", "--start", "2026-12-01T09:00"])
    let added = try receiver.wait(for: 1, to: "/ok/content")
    let update = try #require(added.first?["message"] as? String)
    #expect(update.contains("<P:content-update><D:sync-token>") && !update.contains("property-update"), "\(update)")
    #expect(try receiver.wait(for: 2, to: "/ok/both", seconds: 6).count == 2)
    Thread.sleep(forTimeInterval: 1.0)
    #expect(try receiver.pushes("/ok/property").count == 1, "an event is no property update")
  }

  /// A change an account's sync brings from its server (Radicale) is pushed like any other: the
  /// sync is another process writing the store.
  @Test func aChangeAnAccountSyncBringsIsPushed() throws {
    let (served, receiver, _) = try DAVPushDeliveryTests.served()
    defer { served.stop() }
    let store = served.store
    let server = try AccountProbeTests.Radicale(store.directory.path + "/radicale")
    #expect(try server.curl("MKCALENDAR", "/ann/work/", AccountProbeTests.mkcalendar("Work", "VEVENT")) == "201")
    let passwordFile = store.directory.path + "/password"
    try "s3cret-pass\n".write(toFile: passwordFile, atomically: true, encoding: .utf8)
    chmod(passwordFile, 0o600)
    let added = try store.run([
      "account", "add", "caldav", server.base, "--user", "ann", "--password-file", passwordFile, "--title", "Home",
    ])
    try #require(added.status == 0, "\(added.stderr)")
    let work = try #require(
      try store.objects(["calendar", "list"]).first { $0["title"] as? String == "Work" }?["id"] as? String)
    let base = "http://" + (try #require(served.tcpAddress))
    let app = try served.tokenApp("org.example.phone", access: ["--status", "full"])
    #expect(try receiver.register(app, on: base + "/dav/calendars/\(work)/", "/ok/account").0 == 201)
    Thread.sleep(forTimeInterval: 0.5)

    let event = AccountSyncTests.file(AccountSyncTests.event("lunch@home", "Lunch", day: 3))
    #expect(try server.put("/ann/work/lunch.ics", event) == "201")
    let synced = try store.run(["account", "sync"])
    try #require(synced.status == 0, "\(synced.stderr)")
    let pushed = try receiver.wait(for: 1, to: "/ok/account")
    let message = try #require(pushed.first?["message"] as? String, "nothing came")
    #expect(message.contains("<P:content-update><D:sync-token>") && pushed.first?["vapid"] as? String == "ok")
  }

  /// A push service answering with a redirect is not followed: the message fails there, nothing
  /// reaches where it points, and the registration stays.
  @Test func aPushServicesRedirectIsNotFollowed() throws {
    let (served, receiver, base) = try DAVPushDeliveryTests.served()
    defer { served.stop() }
    let store = served.store
    let work = try store.calendar("Work")
    let app = try served.tokenApp("org.example.phone", access: ["--status", "full"])
    #expect(try receiver.register(app, on: base + "/dav/calendars/\(work)/", "/redirect/phone").0 == 201)
    Thread.sleep(forTimeInterval: 0.5)
    try store.object(["event", "add", "--calendar", work, "--title", "Standup", "--start", "2026-12-01T09:00"])
    let redirected = try receiver.wait(for: 1, to: "/redirect/phone")
    #expect(redirected.first?["status"] as? Int == 307, "\(redirected)")
    Thread.sleep(forTimeInterval: 1.5)
    #expect(try receiver.pushes("/ok/redirected").isEmpty, "the redirect was not followed")
    #expect(try store.objects(["push", "list"]).count == 1, "a redirect does not end the registration")
  }

  /// Apps whose view of a collection is the same share one look at it; an app with limited
  /// access to contacts has its own: a contact not chosen for it pushes nothing to it, while the
  /// app with full access, and another like it, hear of it.
  @Test func aLimitedViewIsLookedAtOnItsOwn() throws {
    let (served, receiver, base) = try DAVPushDeliveryTests.served()
    defer { served.stop() }
    let store = served.store
    let ann = try #require(try store.object(["contact", "add", "--given", "Ann"])["id"] as? String)
    var tokens: [String: String] = [:]
    for (client, access) in [
      ("org.example.full", ["--status", "full"]), ("org.example.other", ["--status", "full"]),
      ("org.example.limited", ["--status", "limited", "--contacts", ann]),
    ] {
      try store.object([
        "client", "register", client, "--name", client, "--usage", "contacts=Sync.",
      ])
      try store.object(["access", "set", client, "--service", "contacts"] + access)
      tokens[client] = try #require(
        try store.object(["client", "token", "create", client, "--label", "dav"])["secret"] as? String)
      let answer = try receiver.register(
        try #require(tokens[client]), on: base + "/dav/addressbooks/contacts/", "/ok/\(client)")
      try #require(answer.0 == 201, "\(client): \(answer)")
    }
    Thread.sleep(forTimeInterval: 0.5)
    try store.object(["contact", "add", "--given", "Bob"])
    #expect(try receiver.wait(for: 1, to: "/ok/org.example.full").count == 1)
    #expect(try receiver.wait(for: 1, to: "/ok/org.example.other").count == 1)
    Thread.sleep(forTimeInterval: 1.0)
    #expect(try receiver.pushes("/ok/org.example.limited").isEmpty, "Bob was not chosen for it")
    // A change to Ann, chosen for it, reaches it.
    Thread.sleep(forTimeInterval: 1.0)
    try store.object(["contact", "update", ann, "--family", "Lee"])
    #expect(try receiver.wait(for: 1, to: "/ok/org.example.limited", seconds: 6).count == 1)
  }
}
