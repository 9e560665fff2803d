import Foundation
import KalendsTestSupport
import Testing

/// WebDAV-Push registration on the store's DAV, through real sockets: the properties an app is
/// shown (its own topic, the store's VAPID key), a `push-register` taken with its Location and
/// Expires, refused for a calendar the app was not given and for push resources the store will
/// not post to (each refusal recorded), ended by DELETE, by the person, and by revoking the app.
@Suite("WebDAV-Push: registrations are the app's, for what it sees, recorded")
struct DAVPushRegistrationTests {
  static let key = "BCVxsr7N_eNgVRqvHtD0zTZsEc6-VV-JvLexhqUzORcxaOzi6-AYWXvTBHm4bjyPjs7Vd8pZGH6SRpkNtoIAiw4"

  static func register(
    _ endpoint: String, key: String = Self.key, auth: String = "BTBZMqHH6r4Tts7J_aSIgg", expires: String? = nil,
    triggers: String = "<P:content-update><D:depth>1</D:depth></P:content-update>"
  ) -> String {
    """
    <?xml version="1.0" encoding="utf-8"?><P:push-register xmlns:P="https://bitfire.at/webdav-push" xmlns:D="DAV:">\
    <P:subscription><P:web-push-subscription><P:push-resource>\(endpoint)</P:push-resource>\
    <P:content-encoding>aes128gcm</P:content-encoding>\
    <P:subscription-public-key type="p256dh">\(key)</P:subscription-public-key>\
    <P:auth-secret>\(auth)</P:auth-secret></P:web-push-subscription></P:subscription>\
    <P:trigger>\(triggers)</P:trigger>\
    \(expires.map { "<P:expires>\($0)</P:expires>" } ?? "")</P:push-register>
    """
  }

  /// A POST of `body` to `url` as the app of `token`: the status, the headers (lower-cased names)
  /// and the body.
  static func post(_ url: String, token: String, body: String) throws -> (Int, [String: String], String) {
    let result = try CLI.run(
      [
        "curl", "-s", "-D", "-", "-X", "POST", "-u", "app:\(token)", "-H", "Content-Type: application/xml",
        "--data-binary", body, url,
      ], program: URL(fileURLWithPath: "/usr/bin/env"))
    let (head, rest) = try #require(
      result.stdout.range(of: "\r\n\r\n").map { (result.stdout[..<$0.lowerBound], result.stdout[$0.upperBound...]) },
      "\(result.stdout)")
    let lines = head.split(separator: "\r\n")
    let status = Int(lines.first?.split(separator: " ").dropFirst().first ?? "") ?? 0
    var headers: [String: String] = [:]
    for line in lines.dropFirst() {
      guard let colon = line.firstIndex(of: ":") else { continue }
      headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
    }
    return (status, headers, String(rest))
  }

  @Test func anAppRegistersWhatItSeesAndNothingElse() throws {
    let served = try ServedStore(["--listen", "127.0.0.1:0", "--push-allow-loopback"])
    defer { served.stop() }
    let store = served.store
    let work = try store.calendar("Work")
    let health = try store.calendar("Health")
    let base = "http://" + (try #require(served.tcpAddress))
    let full = try served.tokenApp("org.example.full", access: ["--status", "full"])
    let chosen = try served.tokenApp("org.example.chosen", access: ["--status", "full", "--calendars", work])

    // Each app is shown the transports, the VAPID key and a topic of its own for the same calendar.
    let propfind =
      #"<D:propfind xmlns:D="DAV:" xmlns:P="https://bitfire.at/webdav-push"><D:prop><P:transports/><P:topic/><P:supported-triggers/></D:prop></D:propfind>"#
    func topic(_ token: String) throws -> String {
      let answer = try ServedStore.request(
        "PROPFIND", base + "/dav/calendars/\(work)/", token: token, body: propfind, headers: ["Depth: 0"])
      #expect(answer.status == 207 && answer.body.contains("vapid-public-key type=\"p256ecdsa\""), "\(answer.body)")
      #expect(answer.body.contains("<P:content-update><D:depth>1</D:depth></P:content-update>"), "\(answer.body)")
      let start = try #require(answer.body.range(of: "<P:topic>"), "\(answer.body)")
      let end = try #require(answer.body.range(of: "</P:topic>"))
      return String(answer.body[start.upperBound..<end.lowerBound])
    }
    let (fullTopic, chosenTopic) = (try topic(full), try topic(chosen))
    #expect(fullTopic.count == 22 && chosenTopic.count == 22 && fullTopic != chosenTopic)
    #expect(try topic(full) == fullTopic, "a topic is stable")
    let options = try CLI.run(
      ["curl", "-s", "-i", "-X", "OPTIONS", "-u", "app:\(full)", base + "/dav/calendars/\(work)/"],
      program: URL(fileURLWithPath: "/usr/bin/env")
    ).stdout
    #expect(options.contains("webdav-push"), "\(options)")

    // A registration of Work: 201, where it is, until when (bounded: a year asked, a week at most).
    let later = "Sun, 06 Nov 2039 08:49:37 GMT"
    let (status, headers, _) = try Self.post(
      base + "/dav/calendars/\(work)/", token: chosen, body: Self.register("http://127.0.0.1:9/push/a", expires: later))
    #expect(status == 201, "\(headers)")
    let location = try #require(headers["location"])
    #expect(location.hasPrefix("/dav/push/"))
    #expect(headers["expires"] != nil && headers["expires"] != later, "\(headers)")
    #expect(try store.object(["status"])["pushRegistrations"] as? Int == 1)
    let listed = try store.objects(["push", "list"])
    #expect(listed.count == 1 && listed.first?["client"] as? String == "org.example.chosen", "\(listed)")
    #expect(listed.first?["host"] as? String == "127.0.0.1" && listed.first?["collection"] as? String == work)
    // The log keeps who registered what, never where the pushes go.
    let log = try store.run(["log", "tail", "-n", "5", "--format", "jsonl"]).stdout
    #expect(log.contains("pushRegistered") && !log.contains("/push/a"), "\(log)")

    // Health was not given to it: refused, recorded, nothing registered.
    func refusals() throws -> Int {
      try store.objects(["audit", "history"]).filter {
        $0["kind"] as? String == "accessAttemptRefused" && ($0["client"] as? String) == "org.example.chosen"
      }.reduce(0) { $0 + ($1["count"] as? Int ?? 1) }
    }
    let before = try refusals()
    let hidden = try Self.post(
      base + "/dav/calendars/\(health)/", token: chosen, body: Self.register("http://127.0.0.1:9/push/b"))
    #expect(hidden.0 == 403, "\(hidden)")
    #expect(try refusals() == before + 1)
    // Push resources the store will not post to: refused at registration, each recorded.
    for endpoint in [
      "https://10.0.0.1/push", "http://169.254.169.254/latest", "https://192.168.1.5/x", "ftp://push.example/x",
    ] {
      let refused = try Self.post(base + "/dav/calendars/\(work)/", token: chosen, body: Self.register(endpoint))
      let named = refused.2.contains("push-not-available") || refused.2.contains("invalid-subscription")
      #expect(refused.0 == 403 && named, "\(endpoint): \(refused)")
    }
    // (Refusals are counted per app, service and minute: the first of a minute is a record at
    // once, the rest its count at the minute's end.)
    let audit = try store.objects(["audit", "history"])
    #expect(
      audit.contains {
        $0["kind"] as? String == "accessAttemptRefused"
          && ($0["operation"] as? String)?.contains("register for push notices: pushes are") == true
      }, "\(audit)")
    #expect(try refusals() == before + 5, "\(audit)")
    // A malformed body or key: a clear error, nothing written.
    let head = try store.head()
    #expect(try Self.post(base + "/dav/calendars/\(work)/", token: chosen, body: "<not-xml").0 == 400)
    #expect(try store.head() == head, "a malformed body writes nothing")
    let badKey = try Self.post(
      base + "/dav/calendars/\(work)/", token: chosen, body: Self.register("http://127.0.0.1:9/p", key: "AAAA"))
    #expect(badKey.0 == 403 && badKey.2.contains("invalid-subscription"), "\(badKey)")
    #expect(try store.objects(["push", "list"]).count == 1)

    // Another app cannot end it (as if it did not exist); its own app can; so can the person.
    #expect(try ServedStore.request("DELETE", base + location, token: full).status == 404)
    #expect(try ServedStore.request("DELETE", base + location, token: chosen).status == 204)
    #expect(try store.objects(["push", "list"]).isEmpty)
    let again = try Self.post(
      base + "/dav/calendars/\(work)/", token: chosen, body: Self.register("http://127.0.0.1:9/push/c"))
    #expect(again.0 == 201)
    let id = try #require(try store.objects(["push", "list"]).first?["id"] as? String)
    #expect(try store.run(["push", "remove", id]).status == 0)
    #expect(try store.objects(["push", "list"]).isEmpty)

    // A calendar the app made itself under a name of its own registers at that name.
    let made = try ServedStore.request(
      "MKCALENDAR", base + "/dav/calendars/my-own/", token: full, body: AccountProbeTests.mkcalendar("Mine", "VEVENT"))
    #expect(made.status == 201, "\(made)")
    let own = try Self.post(
      base + "/dav/calendars/my-own/", token: full, body: Self.register("http://127.0.0.1:9/push/own"))
    #expect(own.0 == 201, "\(own)")
    let ownID = try #require(own.1["location"].map { String($0.dropFirst("/dav/push/".count)) })
    #expect(try ServedStore.request("DELETE", base + "/dav/push/\(ownID)", token: full).status == 204)

    // Revoking the app ends its registrations in the same transaction as the decision.
    #expect(
      try Self.post(base + "/dav/calendars/\(work)/", token: full, body: Self.register("http://127.0.0.1:9/push/d")).0
        == 201)
    #expect(try store.objects(["push", "list"]).count == 1)
    try store.object(["access", "set", "org.example.full", "--service", "calendars", "--status", "denied"])
    #expect(try store.objects(["push", "list"]).isEmpty)
    #expect(try store.run(["verify"]).status == 0)
  }
}
