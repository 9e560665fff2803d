import Foundation
import Kalends
import KalendsTestSupport
import LMDB
import Testing

/// `Tests/Oracles/decode_log.py`, written from docs/log-format.md alone with Python's `lmdb` package, reads
/// and verifies stores written by Kalends exactly as Kalends does: an independent check that the
/// format document and the code agree.
@Suite("Independent decoder (docs/log-format.md)")
struct IndependentDecoderTests {
  static let script = Repository.root
    .appendingPathComponent("Tests/Oracles/decode_log.py").path

  /// Runs the decoder and returns its exit status and output lines.
  func decode(_ arguments: [String]) throws -> (status: Int32, lines: [String], stderr: String) {
    let result = try CLI.run(["python3", Self.script] + arguments, program: URL(fileURLWithPath: "/usr/bin/env"))
    return (result.status, result.stdout.split(separator: "\n").map(String.init), result.stderr)
  }

  /// A store with every actor type, multi-byte text, a payload whose field lengths need two- and
  /// three-byte LEB128, repeated tags and a kind this version does not know.
  func makeVariedStore(at path: String) throws -> Store {
    let store = try Store.create(at: path, options: StoreOptions(durability: .noSync))
    var unknown = Payload()
    unknown.append(tag: 7, bytes: [0xde, 0xad])
    unknown.append(tag: 7, bytes: [0xbe, 0xef])
    unknown.append(tag: 200, bytes: [UInt8](repeating: 0x5a, count: 20_000))
    try store.append(contentsOf: [
      .annotation("plain"),
      .annotation("日本語 and émoji 🗓", by: .client("com.example.planner")),
      .annotation(String(repeating: "long ", count: 40), by: .policy("mdm:school")),
      .annotation("from a feed", by: .source("0E5D2C9A-7F1B-4C3D-9E8F-1A2B3C4D5E6F")),
      RecordDraft(kind: RecordKind(rawValue: 4_242), principal: .system, payload: unknown),
    ])
    try store.append(.annotation("", by: .client("a")))
    // Format version 2: a record with the caller context the store server writes.
    var identified = RecordDraft.annotation("through the server", by: .client("com.example.planner"))
    identified.identification = CallerEvidence(
      uid: 1000, gid: 1000, pid: 4242, executable: "/usr/bin/planner",
      executableSHA256: [UInt8](repeating: 0x3F, count: 32), connection: 77)
    try store.append(identified)
    return store
  }

  @Test func theDecoderReadsEveryRecordAsKalendsDoes() throws {
    let directory = TemporaryDirectory("decoder")
    let store = try makeVariedStore(at: directory.storePath)
    let result = try decode([directory.storePath])
    #expect(result.status == 0, "\(result.stderr)")
    let head = try store.head().position.rawValue
    #expect(result.lines.count == Int(head))
    for line in result.lines {
      let object = try #require(try json(line) as? [String: Any])
      let position = try #require(object["position"] as? Int)
      let record = try store.record(at: LogPosition(UInt64(position)))
      #expect(object["timestampMicros"] as? Int == Int(record.timestamp.rawValue))
      #expect(object["kindCode"] as? Int == Int(record.kind.rawValue))
      #expect(object["kind"] as? String == record.kind.name)
      #expect(object["previousHash"] as? String == record.previousHash.hex)
      #expect(object["hash"] as? String == record.hash.hex)
      let actor = try #require(object["actor"] as? [String: String])
      #expect(actor["type"] == record.principal.typeName)
      #expect(actor["id"] == (record.principal.identifier.isEmpty ? nil : record.principal.identifier))
      #expect(object["formatVersion"] as? Int == Int(record.header.formatVersion))
      let context = object["context"] as? [String: Any]
      if let evidence = record.identification {
        #expect(context?["via"] as? Int == 1)
        #expect(context?["connection"] as? Int == evidence.connection.map(Int.init))
        #expect(context?["uid"] as? Int == Int(try #require(evidence.uid)))
        #expect(context?["pid"] as? Int == Int(try #require(evidence.pid)))
        #expect(context?["executable"] as? String == evidence.executable)
        #expect(context?["executableSha256"] as? String == evidence.executableSHA256.map(hex))
      } else {
        #expect(context == nil, "position \(position)")
      }
      let payload = try #require(object["payload"] as? [String: Any])
      let described = try record.payload.describe(as: record.kind)
      #expect(Set(payload.keys) == Set(described.map(\.name)), "position \(position)")
      for (name, value) in described {
        switch value {
        case .string(let text), .uuid(let text): #expect(payload[name] as? String == text)
        case .bytes(let bytes): #expect(payload[name] as? String == hex(bytes))
        case .list(let values):
          let expected = values.compactMap { if case .bytes(let b) = $0 { hex(b) } else { nil } }
          #expect(payload[name] as? [String] == expected)
        default: Issue.record("unexpected field type in \(name)")
        }
      }
    }
  }

  @Test func theDecoderVerifiesAnIntactStoreWithTheSameHead() throws {
    let directory = TemporaryDirectory("decoder")
    let store = try makeVariedStore(at: directory.storePath)
    let result = try decode(["--verify", directory.storePath])
    #expect(result.status == 0, "\(result.stderr)")
    let object = try #require(try json(result.lines.joined()) as? [String: Any])
    let head = try store.head()
    #expect(object["intact"] as? Bool == true)
    #expect(object["verifiedHead"] as? Int == Int(head.position.rawValue))
    #expect(object["verifiedHeadHash"] as? String == head.hash.hex)
    #expect(object["recordsChecked"] as? Int == Int(head.position.rawValue))
    // The Merkle tree recomputed in Python, level by level, from the records' hashes alone.
    let tree = try store.treeHead()
    #expect(object["treeSize"] as? Int == Int(tree.size))
    #expect(object["treeRoot"] as? String == tree.root.hex)
  }

  @Test func theDecoderVerifiesContactsChoicesPicksAndAnErasedContact() throws {
    let directory = TemporaryDirectory("decoder")
    let store = try Store.create(at: directory.storePath, options: StoreOptions(durability: .noSync))
    let owner = EventStore(store: store)
    let group = try owner.contactStore.save(ContactGroup(name: "Club"))
    var ann = Contact(givenName: "Ann", familyName: "Lee")
    ann.groupIDs = [group.id]
    ann = try owner.contactStore.save(ann)
    let bob = try owner.contactStore.save(Contact(givenName: "Bob"))
    let work = try owner.save(EventCalendar(title: "Work"))
    try owner.register(
      Client(id: "com.example.book", name: "Book", usageDescriptions: [.contacts: "Friends.", .calendarsFull: "Work."]))
    try owner.privacySettings().setLimitedAccess(for: "com.example.book", contacts: [ann.id])
    try owner.privacySettings().setCalendarAccess(for: "com.example.book", calendars: [work.id])
    let app = try owner.session(for: "com.example.book")
    try app.contactStore.save(Contact(givenName: "Own"))
    _ = try app.contactStore.pickContact(using: FixedContactPicker(bob.id))
    try owner.privacySettings().erase(.contact(bob.id), reason: "asked")
    let result = try decode(["--verify", directory.storePath])
    #expect(result.status == 0, "\(result.stderr)")
    let object = try #require(try json(result.lines.joined()) as? [String: Any])
    #expect(object["intact"] as? Bool == true, "\(object)")
    #expect(object["verifiedHead"] as? Int == Int(try store.head().position.rawValue))
    // The decoder names the kinds of its own table; every other by its number (kindCode).
    let kinds = try decode([directory.storePath]).lines.compactMap { line in
      (try? json(line) as? [String: Any])?["kindCode"] as? Int
    }
    for kind in [501, 502, 503, 409, 410, 3] { #expect(kinds.contains(kind), "\(kind) in \(kinds)") }
  }

  @Test func theDecoderAndKalendsFindTheSameFirstDamage() throws {
    for damage in ["flip", "delete", "deleteLast"] {
      let directory = TemporaryDirectory("decoder")
      do { _ = try makeVariedStore(at: directory.storePath) }
      switch damage {
      case "flip": try corrupt(position: 4, in: directory.storePath)
      case "delete": try deleteRecord(position: 3, in: directory.storePath)
      default: try deleteRecord(position: 6, in: directory.storePath)
      }
      let ours = try Store.open(at: directory.storePath).verify()
      let problem = try #require(ours.problem, "\(damage)")
      let result = try decode(["--verify", directory.storePath])
      #expect(result.status == 69, "\(damage)")
      let object = try #require(try json(result.lines.joined()) as? [String: Any])
      let theirs = try #require(object["problem"] as? [String: Any])
      #expect(theirs["position"] as? Int == Int(problem.position.rawValue), "\(damage)")
      #expect(theirs["kind"] as? String == problem.kind.rawValue, "\(damage)")
      #expect(object["recordsChecked"] as? Int == ours.recordsChecked, "\(damage)")
    }
  }

  @Test func theDecoderAndKalendsBindWhatErasureLeavesOfFormat1RecordsAlike() throws {
    for binding in [true, false] {
      let directory = TemporaryDirectory("decoder")
      var legacy = StoreOptions(durability: .noSync)
      legacy.writesLegacyRecords = true
      let erased: [LogPosition]
      do {
        let old = EventStore(store: try Store.create(at: directory.storePath, options: legacy))
        let calendar = try old.save(EventCalendar(title: "Old"))
        let event = try old.save(
          Event(
            calendarID: calendar.id, title: "Gone", start: LocalDateTime(year: 2026, month: 2, day: 1, hour: 9),
            end: LocalDateTime(year: 2026, month: 2, day: 1, hour: 10), timeZone: "Europe/Berlin"), span: .thisEvent)
        let store = try Store.open(
          at: directory.storePath, options: binding ? StoreOptions(durability: .noSync) : legacy)
        erased = try EventStore(store: store).privacySettings().erase(.event(event.id)).erasedPositions
      }
      let ours = try Store.open(at: directory.storePath).verify()
      let result = try decode(["--verify", directory.storePath])
      let object = try #require(try json(result.lines.joined()) as? [String: Any])
      #expect(ours.isIntact && object["intact"] as? Bool == true, "\(object)")
      #expect(ours.unprovenRecords == (binding ? [] : erased))
      #expect(object["unprovenRecords"] as? [Int] == ours.unprovenRecords.map { Int($0.rawValue) })
      guard binding else { continue }
      // A kept field of the erased record changed: its own hash no longer covers it, its erasure does.
      try corrupt(position: erased[0].rawValue, in: directory.storePath)
      let damaged = try #require(try Store.open(at: directory.storePath).verify().problem)
      let theirs = try #require(
        (try json(try decode(["--verify", directory.storePath]).lines.joined()) as? [String: Any])?["problem"]
          as? [String: Any])
      #expect(damaged.kind == .hashMismatch && damaged.position == erased[0])
      #expect(theirs["kind"] as? String == damaged.kind.rawValue)
      #expect(theirs["position"] as? Int == Int(damaged.position.rawValue))
    }
  }

  private func deleteRecord(position: UInt64, in path: String) throws {
    let environment = try Environment(path: path, options: EnvironmentOptions(maxDatabases: 64))
    let log = try environment.openDatabase(named: "log", options: [])
    let deleted = try environment.write { txn in try txn.delete(BigEndianKey(position), in: log) }
    #expect(deleted)
  }
}

/// Lowercase hexadecimal, as the decoder prints opaque bytes.
private func hex(_ bytes: [UInt8]) -> String {
  bytes.map { byte in (byte < 16 ? "0" : "") + String(byte, radix: 16) }.joined()
}
