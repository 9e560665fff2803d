import Foundation
import Kalends
import KalendsFleet
import KalendsTestSupport
import Testing

/// The organisation's stream is made by the organisation (its mirror), never chosen by a store: a
/// push and the mirror read the stream they find and refuse one that sends its messages anywhere
/// else, on a real `nats-server` where a hostile store made the stream first.
@Suite("kalends fleet: a stream another made first")
struct FleetStreamTests {
  /// A store's user that may create the stream (as docs/fleet.md once allowed) and read its own inbox.
  static func creatingUser(_ id: String) -> String {
    """
        { user: "\(id)", password: "pw-\(id)", permissions: {
            publish: { allow: [
              "kal.acme.\(id).rec", "kal.acme.\(id).ckpt", "$JS.API.DIRECT.GET.KAL_acme.kal.acme.\(id).>",
              "$JS.API.STREAM.CREATE.KAL_acme", "$JS.API.STREAM.INFO.KAL_acme"
            ] }
            subscribe: { allow: ["_INBOX.kal.acme.\(id).>"] }
        } }
    """
  }

  /// The stream's configuration as JetStream takes it, with `extra` fields.
  static func configuration(_ extra: [String: any Sendable]) throws -> [UInt8] {
    let base: [String: Any] = [
      "name": "KAL_acme", "subjects": ["kal.acme.*.rec", "kal.acme.*.ckpt", "kal.acme.*.resend"],
      "storage": "file", "allow_direct": true,
    ]
    return Array(try JSONSerialization.data(withJSONObject: base.merging(extra.mapValues { $0 as Any }) { $1 }))
  }

  @Test(
    arguments: [
      ["republish": ["src": ">", "dest": "_INBOX.kal.acme.HOSTILE.loot.>"]],
      ["max_msgs_per_subject": 1],
      ["allow_rollup_hdrs": true],
    ] as [[String: any Sendable]])
  func aPushAndTheMirrorRefuseAStreamAHostileStoreMadeFirst(_ extra: [String: any Sendable]) throws {
    let honest = try CLIStore(generatedEvents: 30)
    let id = try #require(try honest.object(["status"])["storeId"] as? String)
    let hostile = "0b5e7f7e-5a5e-4a5e-8a5e-5a5e5a5e5a5e"
    let nats = try NATSServer(
      configuration: """
        authorization { users = [
        \(FleetPermissionsTests.mirrorUser)
        \(FleetPermissionsTests.storeUser(id))
        \(Self.creatingUser(hostile))
        ] }
        """)
    // The hostile store makes the organisation's stream first, and listens where it republishes.
    let subjects = try FleetSubjects(organisation: "acme")
    let attacker = try NATSConnection(
      url: FleetPermissionsTests.url(hostile, nats), inboxPrefix: "_INBOX.kal.acme.\(hostile)", timeout: .seconds(2))
    let made = try attacker.request("$JS.API.STREAM.CREATE.KAL_acme", try Self.configuration(extra))
    #expect(!String(decoding: made, as: UTF8.self).contains("\"error\""), "\(String(decoding: made, as: UTF8.self))")

    // The honest store's push refuses it, publishing nothing; so does the mirror.
    let pushed = try honest.run(["fleet", "push", "--nats", FleetPermissionsTests.url(id, nats), "--org", "acme"])
    #expect(pushed.status == 67, "\(pushed.stdout) \(pushed.stderr)")
    #expect(pushed.stderr.contains("is not one Kalends publishes to"), "\(pushed.stderr)")
    // A stream republishes what it stores: it stored nothing, so it sent the hostile store nothing.
    #expect(try Self.messages(in: subjects.stream, attacker) == 0, "the stream took the honest store's records")
    let info = try #require(try attacker.streamConfiguration(subjects.stream))
    #expect(!FleetStream.problems(of: info, for: subjects).isEmpty)
    let directory = TemporaryDirectory("mirror")
    let mirrored = try CLI.run([
      "fleet", "mirror", "--nats", FleetPermissionsTests.url("mirror", nats), "--org", "acme", "--dir",
      directory.path, "--once", "--idle", "0.5",
    ])
    #expect(mirrored.status == 67 && mirrored.stderr.contains("is not one Kalends publishes to"), "\(mirrored.stderr)")

    // Removed, and made again by the mirror: the push goes through, and nothing reached the hostile.
    let admin = try NATSConnection(url: FleetPermissionsTests.url("mirror", nats), timeout: .seconds(2))
    try admin.deleteStream(subjects.stream)
    let again = try CLI.run([
      "fleet", "mirror", "--nats", FleetPermissionsTests.url("mirror", nats), "--org", "acme", "--dir",
      directory.path, "--once", "--idle", "0.5",
    ])
    #expect(again.status == 0, "\(again.stderr)")
    let now = try honest.run(["fleet", "push", "--nats", FleetPermissionsTests.url(id, nats), "--org", "acme"])
    #expect(now.status == 0, "\(now.stderr)")
    #expect(try Self.messages(in: subjects.stream, admin) ?? 0 > 0)
    #expect(
      FleetStream.problems(of: try #require(try admin.streamConfiguration(subjects.stream)), for: subjects).isEmpty)
  }

  /// How many messages `stream` holds, as JetStream states it.
  static func messages(in stream: String, _ nats: NATSConnection) throws -> Int? {
    let answer = try nats.request("$JS.API.STREAM.INFO.\(stream)")
    let object = try JSONSerialization.jsonObject(with: Data(answer)) as? [String: Any]
    return (object?["state"] as? [String: Any])?["messages"] as? Int
  }

  @Test func aStoresUserAsDocumentedCannotMakeTheStreamAndIsToldWhoDoes() throws {
    let store = try CLIStore(generatedEvents: 10)
    let id = try #require(try store.object(["status"])["storeId"] as? String)
    let nats = try NATSServer(
      configuration: """
        authorization { users = [
        \(FleetPermissionsTests.mirrorUser)
        \(FleetPermissionsTests.storeUser(id))
        ] }
        """)
    let user = try NATSConnection(
      url: FleetPermissionsTests.url(id, nats), inboxPrefix: "_INBOX.kal.acme.\(id)", timeout: .seconds(1))
    #expect(throws: NATSError.self) {
      try user.request("$JS.API.STREAM.CREATE.KAL_acme", try Self.configuration([:]))
    }
    let pushed = try store.run([
      "fleet", "push", "--nats", FleetPermissionsTests.url(id, nats), "--org", "acme", "--timeout", "1",
    ])
    #expect(pushed.status == 67 && pushed.stderr.contains("the organisation's mirror creates it"), "\(pushed.stderr)")
  }
}
