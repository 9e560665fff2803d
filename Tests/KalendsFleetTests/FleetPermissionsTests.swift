import Foundation
import Kalends
import KalendsFleet
import KalendsTestSupport
import Testing

/// The deployment docs/fleet.md describes, on a real `nats-server`: each store's NATS user may
/// publish its own subjects and read its own last messages and nothing else (no other store's
/// records, no consumer of the stream), the mirror's user takes everything; and TLS with the
/// organisation's certificate authority.
@Suite("kalends fleet: per-store NATS permissions and TLS")
struct FleetPermissionsTests {
  /// A store's user as docs/fleet.md gives it.
  static func storeUser(_ id: String) -> String {
    """
        { user: "\(id)", password: "pw-\(id)", permissions: {
            publish: { allow: [
              "kal.acme.\(id).rec", "kal.acme.\(id).ckpt",
              "$JS.API.DIRECT.GET.KAL_acme.kal.acme.\(id).>", "$JS.API.STREAM.INFO.KAL_acme"
            ] }
            subscribe: { allow: ["_INBOX.kal.acme.\(id).>"] }
        } }
    """
  }

  /// The mirror's user as docs/fleet.md gives it.
  static let mirrorUser = """
        { user: "mirror", password: "pw-mirror", permissions: {
            publish: { allow: ["$JS.API.>", "$JS.ACK.KAL_acme.>", "$KV.KAL_acme_verdicts.>", "kal.acme.*.resend"] }
            subscribe: { allow: ["_INBOX.>"] }
        } }
    """

  static func url(_ user: String, _ nats: NATSServer) -> String {
    "nats://\(user):pw-\(user)@127.0.0.1:\(nats.port)"
  }

  @Test func aStoresUserPublishesAndReadsItsOwnSubjectsOnly() throws {
    let first = try CLIStore(generatedEvents: 300)
    let second = try CLIStore(generatedEvents: 40)
    let ids = try [first, second].map { try #require(try $0.object(["status"])["storeId"] as? String) }
    let nats = try NATSServer(
      configuration:
        "authorization { users = [\n\(Self.mirrorUser)\n\(ids.map(Self.storeUser).joined(separator: "\n"))\n] }"
    )
    // The organisation's mirror creates the stream; each store pushes as itself and reads back.
    let directory = TemporaryDirectory("mirror")
    let created = try CLI.run([
      "fleet", "mirror", "--nats", Self.url("mirror", nats), "--org", "acme", "--dir", directory.path, "--once",
      "--idle", "0.2",
    ])
    #expect(created.status == 0, "\(created.stderr)")
    for (store, id) in zip([first, second], ids) {
      let pushed = try store.run(["fleet", "push", "--nats", Self.url(id, nats), "--org", "acme"])
      #expect(pushed.status == 0, "\(pushed.stderr)")
    }
    _ = try first.calendar("Later")
    let again = try first.object(["fleet", "push", "--nats", Self.url(ids[0], nats), "--org", "acme"])
    #expect(again["bundles"] as? Int == 1 && again["publishedBefore"] as? Int ?? 0 > 300, "\(again)")

    // The first store's user can do nothing with the second's subjects.
    let refused = try second.run([
      "fleet", "push", "--nats", Self.url(ids[0], nats), "--org", "acme", "--timeout", "1",
    ])
    #expect(refused.status == 70, "\(refused.stderr)")
    let subjects = try FleetSubjects(organisation: "acme")
    let (mine, theirs) = try (#require(StoreID(uuid: ids[0])), #require(StoreID(uuid: ids[1])))
    for inbox in [subjects.inbox(of: mine), subjects.inbox(of: theirs)] {
      let snoop = try NATSConnection(url: Self.url(ids[0], nats), inboxPrefix: inbox, timeout: .seconds(1))
      #expect(throws: NATSError.self, "reads the other's last bundle") {
        try snoop.lastMessage(stream: subjects.stream, subject: subjects.records(of: theirs))
      }
      #expect(throws: NATSError.self, "publishes under the other's id") {
        try snoop.publish([1, 2, 3], to: subjects.records(of: theirs), messageID: "forged")
      }
      #expect(throws: NATSError.self, "reads the stream through a consumer") {
        try snoop.pullSubscription(subject: subjects.everything, durable: "snoop").fetch(batch: 1, timeout: .seconds(1))
      }
    }

    // The mirror's user takes both, whole, and puts its verdicts.
    let mirrored = try CLI.run([
      "fleet", "mirror", "--nats", Self.url("mirror", nats), "--org", "acme", "--dir", directory.path, "--once",
      "--idle", "0.5", "--format", "json",
    ])
    let answer = try #require(try json(mirrored.stdout) as? [String: Any], "\(mirrored.stderr)")
    let stores = try #require(answer["stores"] as? [[String: Any]])
    for (store, id) in zip([first, second], ids) {
      let verdict = try #require(stores.first { $0["store"] as? String == id }, "\(answer)")
      #expect(verdict["verifiedSize"] as? Int == (try FleetCommandTests.head(store).position))
    }
    #expect((answer["alerts"] as? [Any])?.isEmpty == true, "\(answer)")
  }

  /// The deployment without passwords: the server requires a certificate of the organisation's
  /// authority and takes its subject as the user (`verify_and_map`), each store's with its
  /// permissions.
  @Test func aStoresCertificateIsItsUserOverMutualTLS() throws {
    let directory = TemporaryDirectory("mtls")
    let organisation = try TestCertificates.authority(in: directory, "acme")
    let stores = try [CLIStore(generatedEvents: 30), CLIStore(generatedEvents: 20)]
    let ids = try stores.map { try #require(try $0.object(["status"])["storeId"] as? String) }
    let certificates = try (ids + ["mirror"]).map { name in
      try TestCertificates.issued(by: organisation.ca, subject: name, at: directory.path + "/client-\(name)")
    }
    func user(_ entry: String, _ name: String) -> String {
      entry.replacingOccurrences(of: "user: \"\(name)\", password: \"pw-\(name)\"", with: "user: \"CN=\(name)\"")
    }
    let users = [user(Self.mirrorUser, "mirror")] + ids.map { user(Self.storeUser($0), $0) }
    let nats = try NATSServer(
      configuration: """
        tls { cert_file: "\(organisation.cert)", key_file: "\(organisation.key)", ca_file: "\(organisation.ca)", \
        verify_and_map: true }
        authorization { users = [
        \(users.joined(separator: "\n"))
        ] }
        """)
    let url = "tls://127.0.0.1:\(nats.port)"
    let mirror = TemporaryDirectory("mirror")
    func mirrorOnce() throws -> CLI.Result {
      try CLI.run([
        "fleet", "mirror", "--nats", url, "--ca", organisation.ca, "--cert", certificates[2].cert, "--cert-key",
        certificates[2].key, "--org", "acme", "--dir", mirror.path, "--once", "--idle", "0.5", "--format", "json",
      ])
    }
    #expect(try mirrorOnce().status == 0, "the organisation's mirror creates the stream")
    func push(_ store: CLIStore, _ certificate: (cert: String, key: String)?) throws -> CLI.Result {
      try store.run(
        ["fleet", "push", "--org", "acme", "--timeout", "2", "--nats", url, "--ca", organisation.ca]
          + (certificate.map { ["--cert", $0.cert, "--cert-key", $0.key] } ?? []))
    }
    for (store, certificate) in zip(stores, certificates) {
      let pushed = try push(store, certificate)
      #expect(pushed.status == 0, "\(pushed.stderr)")
    }
    #expect(try push(stores[0], nil).status == 70, "no certificate, no user")
    #expect(try push(stores[1], certificates[0]).status == 70, "the first store's certificate cannot push the second")
    #expect(
      try stores[0].run(["fleet", "push", "--org", "acme", "--nats", url, "--cert", certificates[0].cert]).status == 64)
    let mirrored = try mirrorOnce()
    let answer = try #require(try json(mirrored.stdout) as? [String: Any], "\(mirrored.stderr)")
    let verified = (answer["stores"] as? [[String: Any]] ?? []).compactMap { $0["verifiedSize"] as? Int }
    #expect(Set(verified) == Set(try stores.map { try FleetCommandTests.head($0).position }), "\(answer)")
  }

  @Test func overTLSTheServerMustChainToTheOrganisationsAuthority() throws {
    let directory = TemporaryDirectory("tls")
    let organisation = try TestCertificates.authority(in: directory, "acme")
    let stranger = try TestCertificates.authority(in: directory, "stranger")
    let nats = try NATSServer(
      configuration: "tls { cert_file: \"\(organisation.cert)\", key_file: \"\(organisation.key)\" }")
    let store = try CLIStore(generatedEvents: 30)
    let secure = "tls://127.0.0.1:\(nats.port)"
    let push = ["fleet", "push", "--org", "acme", "--timeout", "2"]
    for (url, ca) in [
      (secure, nil), (secure, stranger.ca), ("nats://127.0.0.1:\(nats.port)", nil),
    ] as [(String, String?)] {
      let refused = try store.run(push + ["--nats", url] + (ca.map { ["--ca", $0] } ?? []))
      #expect(refused.status == 70, "\(url) \(ca ?? "no CA"): \(refused.stderr)")
    }
    let pushed = try store.run(push + ["--nats", secure, "--ca", organisation.ca])
    #expect(pushed.status == 0, "\(pushed.stderr)")
    let mirror = TemporaryDirectory("mirror")
    let mirrored = try CLI.run([
      "fleet", "mirror", "--nats", secure, "--ca", organisation.ca, "--org", "acme", "--dir", mirror.path, "--once",
      "--idle", "0.5", "--format", "json",
    ])
    let answer = try #require(try json(mirrored.stdout) as? [String: Any], "\(mirrored.stderr)")
    let verdict = try #require((answer["stores"] as? [[String: Any]])?.first, "\(answer)")
    #expect(verdict["verifiedSize"] as? Int == (try FleetCommandTests.head(store).position))
  }
}
