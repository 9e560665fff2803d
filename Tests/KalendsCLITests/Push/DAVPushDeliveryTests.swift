import Foundation
import KalendsTestSupport
import Testing

/// WebDAV-Push delivery by `kalends serve` to a real receiver (Tests/Oracles/webpush_receiver.py):
/// each message decrypted there by PyPI's `http_ece` with the subscription's private key, its VAPID
/// token verified by `cryptography`, its topic the one the app was shown — and nothing for a change
/// the app may not see, a registration its push service says is gone ended, a busy push service
/// tried again.
@Suite("WebDAV-Push: changes reach the receiver, encrypted, signed, scoped")
struct DAVPushDeliveryTests {
  /// A started receiver: its address, its subscription's key and secret, and the log of what came.
  final class Receiver {
    let process: Process
    let base: String
    let p256dh: String
    let auth: String
    let log: String

    /// A receiver logging to `directory`; over HTTPS with `tls` (a certificate for 127.0.0.1 and
    /// its key), as push services are.
    init(_ directory: String, tls: (cert: String, key: String)? = nil) throws {
      log = directory + "/pushes.jsonl"
      try Data().write(to: URL(fileURLWithPath: log))
      let (process, output, _) = try CLI.start(
        ["python3", Repository.root.appendingPathComponent("Tests/Oracles/webpush_receiver.py").path, log]
          + (tls.map { ["1", $0.cert, $0.key] } ?? []),
        program: URL(fileURLWithPath: "/usr/bin/env"))
      self.process = process
      let parts = output.fileHandleForReading.availableLine().split(separator: " ").map(String.init)
      try #require(parts.count == 3, "\(parts)")
      (base, p256dh, auth) = ("\(tls == nil ? "http" : "https")://127.0.0.1:\(parts[0])", parts[1], parts[2])
    }

    /// The pushes received so far whose path starts with `prefix`.
    func pushes(_ prefix: String) throws -> [[String: Any]] {
      // Whole lines only: the receiver may be writing the last one.
      try String(contentsOfFile: log, encoding: .utf8).split(separator: "\n", omittingEmptySubsequences: false)
        .dropLast().compactMap { try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
        .filter { ($0["path"] as? String)?.hasPrefix(prefix) == true }
    }

    /// Waits up to `seconds` for `count` pushes to `prefix`.
    func wait(for count: Int, to prefix: String, seconds: Double = 10) throws -> [[String: Any]] {
      let deadline = Date().addingTimeInterval(seconds)
      while Date() < deadline {
        let found = try pushes(prefix)
        if found.count >= count { return found }
        Thread.sleep(forTimeInterval: 0.05)
      }
      return try pushes(prefix)
    }

    /// Registers the app of `token` on the collection at `url` for pushes to this receiver's
    /// `path`, asking for `triggers`: the status, the headers (lower-cased names) and the body.
    func register(
      _ token: String, on url: String, _ path: String,
      triggers: String = "<P:content-update><D:depth>1</D:depth></P:content-update>"
    ) throws -> (Int, [String: String], String) {
      let body = DAVPushRegistrationTests.register(base + path, key: p256dh, auth: auth, triggers: triggers)
      return try DAVPushRegistrationTests.post(url, token: token, body: body)
    }

    deinit { process.terminate() }
  }

  /// What each delivery test starts from: a store served over TCP with pushes to loopback allowed,
  /// a receiver beside it, and the server's address (`http://HOST:PORT`). The caller stops the
  /// server; when this throws, it is stopped already.
  static func served() throws -> (ServedStore, Receiver, String) {
    let served = try ServedStore(["--listen", "127.0.0.1:0", "--push-allow-loopback"])
    do {
      return (served, try Receiver(served.store.directory.path), "http://" + (try #require(served.tcpAddress)))
    } catch {
      served.stop()
      throw error
    }
  }

  @Test func aChangeReachesTheReceiverEncryptedSignedAndScoped() throws {
    let (served, receiver, base) = try Self.served()
    defer { served.stop() }
    let store = served.store
    let work = try store.calendar("Work")
    let health = try store.calendar("Health")
    let full = try served.tokenApp("org.example.full", access: ["--status", "full"])
    let chosen = try served.tokenApp("org.example.chosen", access: ["--status", "full", "--calendars", work])
    func register(_ token: String, _ calendar: String, _ path: String) throws {
      let answer = try receiver.register(token, on: base + "/dav/calendars/\(calendar)/", path)
      try #require(answer.0 == 201, "\(answer)")
    }
    try register(chosen, work, "/ok/chosen-work")
    try register(full, health, "/ok/full-health")
    try register(full, work, "/gone/full-work")
    try register(chosen, work, "/busy/chosen-work")
    let topicAnswer = try ServedStore.request(
      "PROPFIND", base + "/dav/calendars/\(work)/", token: chosen,
      body:
        #"<D:propfind xmlns:D="DAV:" xmlns:P="https://bitfire.at/webdav-push"><D:prop><P:topic/></D:prop></D:propfind>"#,
      headers: ["Depth: 0"])
    let start = try #require(topicAnswer.body.range(of: "<P:topic>"), "\(topicAnswer.body)")
    let end = try #require(topicAnswer.body.range(of: "</P:topic>"))
    let topic = String(topicAnswer.body[start.upperBound..<end.lowerBound])

    // A change in Work from the command line: the chosen app hears of it, decrypted and verified.
    Thread.sleep(forTimeInterval: 0.5)  // The delivery has taken its first look.
    let written = Date().timeIntervalSince1970
    try store.object(["event", "add", "--calendar", work, "--title", "Standup", "--start", "2026-12-01T09:00"])
    let heard = try receiver.wait(for: 1, to: "/ok/chosen-work")
    let push = try #require(heard.first, "nothing came")
    #expect(push["vapid"] as? String == "ok", "\(push)")
    #expect(push["encoding"] as? String == "aes128gcm" && push["ttl"] as? String != nil)
    let message = try #require(push["message"] as? String)
    #expect(message.contains("<P:topic>\(topic)</P:topic>") && message.contains("push-message"), "\(message)")
    #expect(push["topic"] as? String == topic)
    // Its sync token is one the store's DAV takes from this app: a sync from it is answered.
    let tokenStart = try #require(message.range(of: "<D:sync-token>"), "\(message)")
    let tokenEnd = try #require(message.range(of: "</D:sync-token>"))
    let token = String(message[tokenStart.upperBound..<tokenEnd.lowerBound])
    let sync = try ServedStore.request(
      "REPORT", base + "/dav/calendars/\(work)/", token: chosen,
      body:
        #"<D:sync-collection xmlns:D="DAV:"><D:sync-token>\#(token)</D:sync-token><D:sync-level>1</D:sync-level><D:prop><D:getetag/></D:prop></D:sync-collection>"#,
      headers: ["Depth: 1"])
    #expect(sync.status == 207 && !sync.body.contains("Standup"), "\(sync.status) \(sync.body)")
    #expect((push["at"] as? Double ?? .infinity) - written < 1.0, "within a second of the write")
    // The busy push service is tried again and takes it; the gone one ends its registration.
    let busy = try receiver.wait(for: 2, to: "/busy/chosen-work")
    #expect(busy.map { $0["status"] as? Int } == [429, 201], "\(busy)")
    _ = try receiver.wait(for: 1, to: "/gone/full-work")
    var registrations: [[String: Any]] = []
    for _ in 0..<50 {
      registrations = try store.objects(["push", "list"])
      if registrations.count == 3 { break }
      Thread.sleep(forTimeInterval: 0.1)
    }
    #expect(registrations.count == 3, "the gone registration ended: \(registrations)")
    #expect(try receiver.pushes("/ok/full-health").isEmpty, "Health did not change")

    // A change in Health: the app that sees it hears of it; the chosen app, registered on Work
    // only, hears nothing.
    try store.object(["event", "add", "--calendar", health, "--title", "Dentist", "--start", "2026-12-02T09:00"])
    #expect(try receiver.wait(for: 1, to: "/ok/full-health").count == 1)
    Thread.sleep(forTimeInterval: 0.5)
    #expect(try receiver.pushes("/ok/chosen-work").count == 1, "a change it may not see pushes nothing")

    // Revoked: its registrations end, and the next change in Work pushes nothing to it.
    try store.object(["access", "set", "org.example.chosen", "--service", "calendars", "--status", "denied"])
    try store.object(["event", "add", "--calendar", work, "--title", "Review", "--start", "2026-12-03T09:00"])
    Thread.sleep(forTimeInterval: 1.0)
    #expect(try receiver.pushes("/ok/chosen-work").count == 1)
    #expect(try receiver.pushes("/busy/chosen-work").count == 2)
    #expect(try store.run(["verify"]).status == 0)
  }

  /// Another app's write over CalDAV is pushed; a push service that hangs delays only its own
  /// registration; an address book's change is pushed to the app registered on it; a write-only
  /// app registers nothing; one token holds at most 100 registrations, and revoking a token ends
  /// those made with it.
  @Test func otherWritersAHungServiceAnAddressBookAndTheBounds() throws {
    let (served, receiver, base) = try Self.served()
    defer { served.stop() }
    let store = served.store
    let work = try store.calendar("Work")
    let writer = try served.tokenApp("org.example.writer", access: ["--status", "full"])
    try store.object([
      "client", "register", "org.example.reader", "--name", "Reader", "--usage", "calendars-full=Sync.", "--usage",
      "contacts=Sync.",
    ])
    for service in ["calendars", "contacts"] {
      try store.object(["access", "set", "org.example.reader", "--service", service, "--status", "full"])
    }
    let reader = try #require(
      try store.object(["client", "token", "create", "org.example.reader", "--label", "dav"])["secret"] as? String)
    func register(_ token: String, _ collection: String, _ path: String) throws -> Int {
      try receiver.register(token, on: base + collection, path).0
    }
    #expect(try register(reader, "/dav/calendars/\(work)/", "/slow/reader-work") == 201)
    #expect(try register(reader, "/dav/calendars/\(work)/", "/ok/reader-work") == 201)
    #expect(try register(reader, "/dav/addressbooks/contacts/", "/ok/reader-book") == 201)
    Thread.sleep(forTimeInterval: 0.5)

    // The writer app PUTs an event over CalDAV: the reader hears of it, though its other push
    // service hangs.
    let event =
      "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//t//EN\r\nBEGIN:VEVENT\r\nUID:put-1\r\n"
      + "DTSTAMP:20261130T090000Z\r\nDTSTART:20261201T090000Z\r\nSUMMARY:Put\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n"
    let put = try ServedStore.request(
      "PUT", base + "/dav/calendars/\(work)/put-1.ics", token: writer, body: event,
      headers: ["Content-Type: text/calendar"])
    #expect(put.status == 201, "\(put)")
    #expect(try receiver.wait(for: 1, to: "/ok/reader-work", seconds: 5).count == 1, "delivered beside a hung one")
    #expect(try receiver.pushes("/ok/reader-book").isEmpty, "the address book did not change")

    // A contact added by the person: the app registered on the address book hears of it.
    try store.object(["contact", "add", "--given", "Ann", "--email", "ann@example.com"])
    let book = try receiver.wait(for: 1, to: "/ok/reader-book", seconds: 5)
    #expect(book.count == 1 && book.first?["vapid"] as? String == "ok", "\(book)")

    // A write-only app may not read the calendar: it registers nothing, and is told so.
    let writeOnly = try served.tokenApp("org.example.writeonly", access: ["--status", "write-only"])
    #expect(try register(writeOnly, "/dav/calendars/\(work)/", "/ok/wo") == 403)

    // 10,000 registrations from one token (a hostile or broken client): the token holds 100 at
    // most — the reader's 3 and 97 more — and every other is refused, over one kept connection.
    let flood = try CLI.run(
      ["python3", "-c", Self.flood, base, work, reader, receiver.base, receiver.p256dh, receiver.auth, "10000"],
      program: URL(fileURLWithPath: "/usr/bin/env"))
    #expect(flood.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "201:97 400:9903", "\(flood)")
    #expect(try store.objects(["push", "list"]).count == 100)
    // The same push resource again replaces its registration rather than adding one.
    #expect(try register(reader, "/dav/calendars/\(work)/", "/ok/many-0") == 201)
    #expect(try store.objects(["push", "list"]).count == 100)
    // Another token of the app (another device) registers on; revoking it ends what it made.
    let tablet = try store.object(["client", "token", "create", "org.example.reader", "--label", "tablet"])
    let tabletSecret = try #require(tablet["secret"] as? String)
    #expect(try register(tabletSecret, "/dav/calendars/\(work)/", "/ok/tablet") == 201)
    #expect(try store.objects(["push", "list"]).count == 101)
    try store.object(["client", "token", "revoke", "org.example.reader", try #require(tablet["id"] as? String)])
    #expect(try store.objects(["push", "list"]).count == 100)
    #expect(try store.objects(["push", "list"]).allSatisfy { $0["tokenId"] as? String != tablet["id"] as? String })
  }

  /// A client registering COUNT push resources on a calendar over one kept-alive connection:
  /// prints how many answers had each status (`201:N 403:M`).
  static let flood = #"""
    import base64, collections, http.client, sys, urllib.parse
    base, calendar, token, receiver, key, auth, count = sys.argv[1:8]
    url = urllib.parse.urlsplit(base)
    connection = http.client.HTTPConnection(url.hostname, url.port)
    basic = base64.b64encode(f"app:{token}".encode()).decode()
    statuses = collections.Counter()
    for index in range(int(count)):
        body = ('<?xml version="1.0"?><P:push-register xmlns:P="https://bitfire.at/webdav-push"><P:subscription>'
                f'<P:web-push-subscription><P:push-resource>{receiver}/ok/many-{index}</P:push-resource>'
                f'<P:subscription-public-key type="p256dh">{key}</P:subscription-public-key>'
                f'<P:auth-secret>{auth}</P:auth-secret></P:web-push-subscription></P:subscription></P:push-register>')
        connection.request("POST", f"/dav/calendars/{calendar}/", body=body,
                           headers={"Authorization": f"Basic {basic}", "Content-Type": "application/xml"})
        answer = connection.getresponse()
        answer.read()
        statuses[answer.status] += 1
    print(" ".join(f"{status}:{statuses[status]}" for status in sorted(statuses)))
    """#
}
