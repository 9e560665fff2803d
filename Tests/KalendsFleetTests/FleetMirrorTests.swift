import Foundation
import Kalends
import KalendsFleet
import KalendsTestSupport
import Testing

/// The fleet's mirror in process against bundles made from a real store's records and altered on
/// purpose: what it verifies, what it flags, what it keeps across a restart (real LMDB, no NATS:
/// FleetCommandTests runs the whole path through a real `nats-server`).
@Suite("The fleet's mirror verifies what it holds")
struct FleetMirrorTests {
  static var subjects: FleetSubjects {
    get throws { try FleetSubjects(organisation: "acme") }
  }

  /// A store of a few hundred records and its records' bytes.
  static func records() throws -> (store: Store, records: [[UInt8]], keep: CLIStore) {
    let cli = try CLIStore(generatedEvents: 300)
    let store = try Store.open(at: cli.directory.storePath)
    let head = try store.head().position
    return (store, try store.recordBytes(from: LogPosition(1), through: head), cli)
  }

  static func bundle(_ store: Store, _ records: [[UInt8]], _ range: ClosedRange<Int>) -> [UInt8] {
    RecordBundle(
      store: store.id, first: LogPosition(UInt64(range.lowerBound)),
      records: Array(records[(range.lowerBound - 1)...(range.upperBound - 1)])
    ).bytes
  }

  @Test func bundlesInOrderAreVerifiedAndKeptAcrossARestart() throws {
    let (store, records, keep) = try Self.records()
    let directory = TemporaryDirectory("mirror")
    let subject = try Self.subjects.records(of: store.id)
    var mirror = try FleetMirror(directory: directory.path, subjects: try Self.subjects)
    var sequence: UInt64 = 0
    for start in stride(from: 1, through: records.count, by: 256) {
      sequence += 1
      try mirror.take(
        subject: subject, sequence: sequence, data: Self.bundle(store, records, start...min(records.count, start + 255))
      )
    }
    // A bundle sent again (a re-send after a crash) changes nothing.
    try mirror.take(subject: subject, sequence: sequence + 1, data: Self.bundle(store, records, 1...10))
    let head = try store.head()
    #expect(mirror.verdicts().map(\.verifiedSize) == [UInt64(records.count)])
    #expect(mirror.verdicts().first?.head == head.hash && mirror.verdicts().first?.flagged == false)
    #expect(try mirror.alertList().isEmpty)
    mirror = try FleetMirror(directory: directory.path, subjects: try Self.subjects)
    #expect(mirror.verdicts().first?.verifiedSize == UInt64(records.count), "a restart re-verifies what it holds")
    withExtendedLifetime(keep) {}
  }

  @Test func aGapWaitsAForkAndAForgedRecordAreFlaggedWithEvidence() throws {
    let (store, records, keep) = try Self.records()
    let subject = try Self.subjects.records(of: store.id)
    // A gap: 1–10, then 21–30; taken once 11–30 come.
    let gaps = TemporaryDirectory("mirror")
    let mirror = try FleetMirror(directory: gaps.path, subjects: try Self.subjects)
    try mirror.take(subject: subject, sequence: 1, data: Self.bundle(store, records, 1...10))
    try mirror.take(subject: subject, sequence: 2, data: Self.bundle(store, records, 21...30))
    #expect(mirror.verdicts().first?.verifiedSize == 10 && mirror.verdicts().first?.flagged == false)
    #expect(try mirror.alertList().map(\.kind) == [.gap] && mirror.alertList().first?.position == LogPosition(11))
    try mirror.take(subject: subject, sequence: 3, data: Self.bundle(store, records, 11...30))
    #expect(mirror.verdicts().first?.verifiedSize == 30)

    // A fork: other bytes for a position held.
    var forked = records
    forked[4][forked[4].count - 40] ^= 0x01
    try mirror.take(subject: subject, sequence: 4, data: Self.bundle(store, forked, 1...40))
    let fork = try #require(try mirror.alertList().last)
    #expect(fork.kind == .fork && fork.position == LogPosition(5) && fork.message == 4)
    #expect(mirror.verdicts().first?.flagged == true && mirror.verdicts().first?.verifiedSize == 30)
    // Flagged, nothing more is taken of it.
    try mirror.take(subject: subject, sequence: 5, data: Self.bundle(store, records, 31...40))
    #expect(mirror.verdicts().first?.verifiedSize == 30)

    // A forged record past what is held: its hash no longer matches.
    let forgedDirectory = TemporaryDirectory("mirror")
    let second = try FleetMirror(directory: forgedDirectory.path, subjects: try Self.subjects)
    var forged = records
    forged[19][forged[19].count - 40] ^= 0x01
    try second.take(subject: subject, sequence: 1, data: Self.bundle(store, forged, 1...40))
    let alert = try #require(try second.alertList().first)
    #expect(alert.kind == .integrity && alert.position == LogPosition(20), "\(alert)")
    #expect(second.verdicts().first?.verifiedSize == 19 && second.verdicts().first?.flagged == true)

    // A bundle on another store's subject, and bytes that are no bundle.
    let thirdDirectory = TemporaryDirectory("mirror")
    let third = try FleetMirror(directory: thirdDirectory.path, subjects: try Self.subjects)
    let other = try Self.subjects.records(of: StoreID.random())
    try third.take(subject: other, sequence: 1, data: Self.bundle(store, records, 1...5))
    try third.take(subject: subject, sequence: 2, data: Array("not a bundle".utf8))
    #expect(try third.alertList().map(\.kind) == [.malformed, .malformed] && third.verdicts().isEmpty)
    withExtendedLifetime(keep) {}
  }

  @Test func aCheckpointCountsWhenTheEnrolledKeySignedItAndTheRecordsHeldExtendIt() throws {
    let cli = try CLIStore(generatedEvents: 100)
    let owner = try CheckpointSigner.generate(name: "owner.example")
    let stranger = try CheckpointSigner.generate(name: "stranger.example")
    // One store in this process (LMDB opens an environment once per process); the CLI writes too.
    let store = try Store.open(at: cli.directory.storePath)
    let signed = try store.checkpoint(signer: owner)
    let size = try Checkpoint(parsing: signed.text).treeHead.size
    _ = try cli.calendar("Later")
    let head = try store.head().position
    let records = try store.recordBytes(from: LogPosition(1), through: head)
    let subject = try Self.subjects.records(of: store.id)
    let checkpoints = try Self.subjects.checkpoints(of: store.id)
    let proof = try store.consistencyProof(from: size, to: head.rawValue)
    let message = CheckpointMessage(note: signed, publishedSize: head.rawValue, proof: proof.path)
    let trust = FleetTrust(enrolled: [store.id: owner.verifier])

    // No key enrolled: an alert, and nothing counts.
    let unenrolled = TemporaryDirectory("mirror")
    let first = try FleetMirror(directory: unenrolled.path, subjects: try Self.subjects)
    try first.take(subject: subject, sequence: 1, data: Self.bundle(store, records, 1...records.count))
    try first.take(subject: checkpoints, sequence: 2, data: message.bytes)
    #expect(try first.alertList().map(\.kind) == [.checkpoint] && first.verdicts().first?.checkpoint == nil)
    #expect(first.verdicts().first?.flagged == false)

    // Enrolled, arriving before its records: verified once they come, and after a restart.
    let enrolled = TemporaryDirectory("mirror")
    var mirror = try FleetMirror(directory: enrolled.path, subjects: try Self.subjects, trust: trust)
    try mirror.take(subject: checkpoints, sequence: 1, data: message.bytes)
    #expect(mirror.verdicts().isEmpty || mirror.verdicts().first?.checkpoint == nil)
    try mirror.take(subject: subject, sequence: 2, data: Self.bundle(store, records, 1...records.count))
    #expect(mirror.verdicts().first?.checkpoint == size && mirror.verdicts().first?.flagged == false)
    #expect(try mirror.alertList().isEmpty)
    mirror = try FleetMirror(directory: enrolled.path, subjects: try Self.subjects, trust: trust)
    #expect(mirror.verdicts().first?.checkpoint == size)

    // A proof the records held do not bear out: the log was rewritten since it was signed.
    var bent = proof.path
    bent[0] = RecordHash(bytes: Array(repeating: 7, count: 32))!
    let rewritten = TemporaryDirectory("mirror")
    let third = try FleetMirror(directory: rewritten.path, subjects: try Self.subjects, trust: trust)
    try third.take(subject: subject, sequence: 1, data: Self.bundle(store, records, 1...records.count))
    try third.take(
      subject: checkpoints, sequence: 2,
      data: CheckpointMessage(note: signed, publishedSize: head.rawValue, proof: bent).bytes)
    #expect(third.verdicts().first?.flagged == true && third.verdicts().first?.checkpoint == nil)
    #expect(try third.alertList().first?.kind == .checkpoint)

    // Signed by a key other than the enrolled one: flagged.
    let forged = try store.checkpoint(signer: stranger)
    let fourthDirectory = TemporaryDirectory("mirror")
    let fourth = try FleetMirror(directory: fourthDirectory.path, subjects: try Self.subjects, trust: trust)
    try fourth.take(subject: subject, sequence: 1, data: Self.bundle(store, records, 1...records.count))
    try fourth.take(
      subject: checkpoints, sequence: 2,
      data: CheckpointMessage(note: forged, publishedSize: head.rawValue, proof: []).bytes)
    #expect(fourth.verdicts().first?.flagged == true)
    #expect(try fourth.alertList().first?.detail.contains("not signed by the key enrolled") == true)
    withExtendedLifetime(cli) {}
  }
}
