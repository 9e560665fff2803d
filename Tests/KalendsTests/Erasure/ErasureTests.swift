import Foundation
import KalendsTestSupport
import LMDB
import Testing

@testable import Kalends

@Suite("Erasing an object's content, every proof kept")
struct ErasureTests {
  /// Text that must not survive an erasure anywhere: unusual enough not to occur by chance.
  static let secretTitle = "Clinic visit QZX7"
  static let secretNotes = "diagnosis WKJ3"

  /// A store signed at every commit, with a calendar, a secret event saved twice and an event kept.
  struct Fixture {
    let store: Store
    let events: EventStore
    let calendar: EventCalendar
    let secret: Event
    let kept: Event
    let signer: CheckpointSigner

    init(_ store: Store, signer: CheckpointSigner) throws {
      self.store = store
      self.signer = signer
      events = EventStore(store: store)
      calendar = try events.save(EventCalendar(title: "Private"))
      var event = Event(
        calendarID: calendar.id, title: ErasureTests.secretTitle, start: local(2026, 3, 29, 9),
        end: local(2026, 3, 29, 10), timeZone: "Europe/Berlin")
      event.notes = ErasureTests.secretNotes
      event.location = "Room WKJ3"
      var saved = try events.save(event, span: .thisEvent)
      saved.title = ErasureTests.secretTitle + " (moved)"
      secret = try events.save(saved, span: .thisEvent)
      kept = try events.save(
        Event(
          calendarID: calendar.id, title: "Standup", start: local(2026, 3, 30, 9), end: local(2026, 3, 30, 10),
          timeZone: "Europe/Berlin"), span: .thisEvent)
    }
  }

  func withFixture(_ options: StoreOptions = StoreOptions(durability: .noSync), _ body: (Fixture) throws -> Void)
    throws
  {
    let signer = try CheckpointSigner.generate(name: "erasure.test/log")
    var options = options
    options.checkpointSigner = signer
    try withStore(options) { store, _ in try body(try Fixture(store, signer: signer)) }
  }

  func contains(_ bytes: [UInt8], _ text: String) -> Bool {
    let needle = Array(text.utf8)
    guard bytes.count >= needle.count else { return false }
    return (0...(bytes.count - needle.count)).contains { bytes[$0..<($0 + needle.count)].elementsEqual(needle) }
  }

  /// The positions of the saves of `id`, in log order.
  func saves(of id: ObjectID, in store: Store) throws -> [LogPosition] {
    try store.records(from: 1, limit: .max).filter { record in
      try record.kind == .eventSaved && namedFields(record)["id"] == .uuid(id.description.lowercased())
    }.map(\.position)
  }

  @Test func theContentLeavesEveryRecordAndTheHashesAndProofsStay() throws {
    try withFixture { fixture in
      let store = fixture.store
      let before = try store.records(from: 1, limit: .max)
      let checkpoint = try #require(try store.latestCheckpoint())
      let saves = try saves(of: fixture.secret.id, in: store)
      #expect(saves.count == 2)

      let erasure = try fixture.events.privacySettings().erase(.event(fixture.secret.id), reason: "the person asked")
      #expect(erasure.removal != nil, "the live event is removed first")
      #expect(erasure.erasedPositions == saves)
      #expect(try fixture.events.event(withID: fixture.secret.id) == nil)
      #expect(try fixture.events.event(withID: fixture.kept.id)?.title == "Standup")

      let after = try store.records(from: 1, limit: .max)
      #expect(after.prefix(before.count).map(\.hash) == before.map(\.hash), "no record's hash changed")
      for record in after {
        let bytes = try store.environmentValue(at: record.position.rawValue)
        #expect(!contains(bytes, "QZX7") && !contains(bytes, "WKJ3"), "record \(record.position) keeps content")
      }
      for position in saves {
        let record = after[Int(position.rawValue) - 1]
        #expect(record.header.content == .erased)
        #expect(try Set(namedFields(record).keys) == ["id", "calendarId", "change"])
      }
      let erased = try #require(after.last)
      #expect(erased.kind == .contentErased && erased.principal == .person)
      let fields = try namedFields(erased)
      #expect(fields["reason"] == .string("the person asked"))
      #expect(fields["id"] == .uuid(fixture.secret.id.description.lowercased()))

      let report = try store.verify(since: try Checkpoint.verified(checkpoint, by: fixture.signer.verifier))
      #expect(report.isIntact, "the checkpoint signed before the erasure still verifies")
      #expect(try store.verifyProjections().isConsistent, "a replay of the erased log gives the same projections")
      for position in 1...erased.position.rawValue {
        let proof = try store.proveRecord(at: LogPosition(position))
        let (proven, _) = try proof.check(logKey: fixture.signer.verifier)
        #expect(proven.position.rawValue == position)
        #expect(proven.header.content == (saves.contains(LogPosition(position)) ? .erased : .present))
      }
      // An inclusion proof made before the erasure against the old checkpoint still holds.
      let old = try store.proveRecord(at: saves[0], against: checkpoint)
      #expect(try old.check(logKey: fixture.signer.verifier).0.header.content == .erased)
    }
  }

  @Test func aWitnessThatCosignedBeforeTheErasureCosignsAfterIt() throws {
    try withFixture { fixture in
      let store = fixture.store
      let directory = TemporaryDirectory("erasure-witness")
      let witnessKey = try CheckpointSigner.generate(name: "witness.example/w1", isCosigner: true)
      // The witness knows the log by a key named after its origin.
      let logKey = try CheckpointSigner.generate(name: store.origin)
      let witness = try Witness(path: directory.path + "/witness", signer: witnessKey, logs: [logKey.verifier])
      func request(old: UInt64, _ note: SignedNote) throws -> String {
        let size = try Checkpoint(parsing: note.text).treeHead.size
        let path = try store.consistencyProof(from: old, to: size).path
        return "old \(old)\n" + path.map { $0.base64 + "\n" }.joined() + "\n" + note.description
      }
      let before = try store.checkpoint(signer: logKey)
      #expect(witness.addCheckpoint(try request(old: 0, before)).status == 200)
      try fixture.events.privacySettings().erase(.event(fixture.secret.id))
      let after = try store.checkpoint(signer: logKey)
      let old = try Checkpoint(parsing: before.text).treeHead.size
      let answer = witness.addCheckpoint(try request(old: old, after))
      #expect(answer.status == 200, "the erased log is consistent with what the witness saw: \(answer.body)")
    }
  }

  @Test func aRecordWithContentHashesAsItsErasedFormComputedByHashlib() throws {
    try withFixture { fixture in
      let position = try saves(of: fixture.secret.id, in: fixture.store)[0]
      let bytes = try fixture.store.environmentValue(at: position.rawValue)
      #expect(bytes[0] == 3)
      // The layout of docs/log-format.md, "Format version 3", read by hand.
      let n = Int(bytes[18]) << 8 | Int(bytes[19])
      let c = Int(bytes[20 + n]) << 8 | Int(bytes[21 + n])
      let o = 25 + n + c
      #expect(bytes[o - 1] == 0, "content present")
      let salt = Array(bytes[o..<(o + 16)])
      func number(_ at: Int) -> Int { bytes[at..<(at + 4)].reduce(0) { $0 << 8 | Int($1) } }
      let (f, p) = (number(o + 16), number(o + 20))
      let facts = Array(bytes[(o + 24)..<(o + 24 + f)])
      let content = Array(bytes[(o + 24 + f)..<(o + 24 + f + p)])
      #expect(contains(content, "QZX7") && !contains(facts, "QZX7"))
      let commitment = try HashlibOracle.sha256([[0x02] + salt + content])[0]
      let erasedForm =
        Array(bytes[0..<(o - 1)]) + [0x01] + commitment + Array(bytes[(o + 16)..<(o + 20)]) + facts
        + Array(bytes[(bytes.count - 64)..<(bytes.count - 32)])
      let leaf = try HashlibOracle.sha256([[0x00] + erasedForm])[0]
      #expect(Array(bytes.suffix(32)) == leaf)

      try fixture.events.privacySettings().erase(.event(fixture.secret.id))
      let erased = try fixture.store.environmentValue(at: position.rawValue)
      #expect(erased == erasedForm + leaf, "erasing leaves exactly the erased form and its hash")
    }
  }

  @Test func eachRecordHasItsOwnSaltSoEqualContentCommitsDifferently() throws {
    try withFixture { fixture in
      func same() -> Event {
        Event(
          calendarID: fixture.calendar.id, title: "Same", start: local(2026, 4, 1, 9), end: local(2026, 4, 1, 10),
          timeZone: nil)
      }
      let first = try fixture.events.save(same(), span: .thisEvent)
      let second = try fixture.events.save(same(), span: .thisEvent)
      for id in [first.id, second.id] { try fixture.events.privacySettings().erase(.event(id)) }
      let commitments = try [first.id, second.id].map { id in
        let bytes = try fixture.store.environmentValue(at: try saves(of: id, in: fixture.store)[0].rawValue)
        let n = Int(bytes[18]) << 8 | Int(bytes[19])
        let o = 25 + n + (Int(bytes[20 + n]) << 8 | Int(bytes[21 + n]))
        return Array(bytes[o..<(o + 32)])
      }
      #expect(commitments[0] != commitments[1])
    }
  }

  /// A closed store at a path, for damaging: the fixture, erased first when `erased`, and the
  /// position of the secret event's first save.
  func closedFixture(erased: Bool) throws -> (TemporaryDirectory, LogPosition) {
    let directory = TemporaryDirectory()
    let store = try Store.create(at: directory.storePath)
    let fixture = try Fixture(store, signer: try CheckpointSigner.generate(name: "x/log"))
    let position = try saves(of: fixture.secret.id, in: store)[0]
    if erased {
      try fixture.events.privacySettings().erase(.event(fixture.secret.id))
      #expect(try store.verify().isIntact)
    }
    return (directory, position)
  }

  @Test func contentDroppedWithoutARecordOfItsErasureIsCaught() throws {
    let (directory, position) = try closedFixture(erased: false)
    try Damage.withLog(directory.storePath) { txn, log, _ in
      let bytes = try #require(try txn.value(forKey: BigEndianKey(position.rawValue), in: log))
      let dropped = try #require(try RecordCodec.erasing(bytes.span.bytes))
      try txn.put(dropped, forKey: BigEndianKey(position.rawValue), in: log)
    }
    let report = try Store.open(at: directory.storePath, options: StoreOptions(readOnly: true)).verify()
    #expect(report.problem?.kind == .unrecordedErasure)
    #expect(report.problem?.position == position)
  }

  @Test func anErasedRecordsKeptFieldsAndHeaderAreStillProvenByItsHash() throws {
    let (directory, position) = try closedFixture(erased: true)
    // The kept `change` field, then the timestamp: either altered breaks the hash.
    for offset in [-70, 12] {
      try Damage.flipByte(of: position.rawValue, at: offset, in: directory.storePath)
      let report = try Store.open(at: directory.storePath, options: StoreOptions(readOnly: true)).verify()
      #expect(report.problem?.kind == .hashMismatch, "offset \(offset)")
      try Damage.flipByte(of: position.rawValue, at: offset, in: directory.storePath)
    }
  }

  @Test func anAppCannotEraseAndItsAttemptIsRecorded() throws {
    try withStore { store, _ in
      let fixture = try PrivacyFixture(store)
      try fixture.owner.privacySettings().setAccess(.fullAccess, for: PrivacyFixture.planner, service: .calendars)
      let app = try fixture.owner.session(for: PrivacyFixture.planner)
      let head = try store.head()
      // An app's session cannot obtain the person's settings, so cannot name erasure.
      #expect(throws: StoreError.access(.ownerOnly("change privacy settings"))) { try app.privacySettings() }
      let records = try store.records(from: head.position.next, limit: .max)
      #expect(records.map(\.kind) == [.ownerActionRefused])
      #expect(try fixture.owner.event(withID: fixture.existing.id)?.title == "Review", "nothing was erased")
      #expect(try store.records(from: 1, limit: .max).allSatisfy { $0.header.content == .present })
    }
  }

  @Test func erasingWhatNeverExistedChangesNothing() throws {
    try withFixture { fixture in
      let head = try fixture.store.head()
      let missing = ObjectID.random()
      #expect(throws: StoreError.calendar(.itemNotFound(missing))) {
        try fixture.events.privacySettings().erase(.event(missing))
      }
      #expect(throws: StoreError.calendar(.calendarNotFound(missing))) {
        try fixture.events.privacySettings().erase(.calendar(missing))
      }
      #expect(try fixture.store.head() == head)
      #expect(throws: StoreError.self) {
        try fixture.events.privacySettings().erase(.event(fixture.kept.id), reason: "bad\u{0}")
      }
      #expect(try fixture.store.head() == head)
    }
  }

  @Test func erasingTwiceErasesNothingMore() throws {
    try withFixture { fixture in
      try fixture.events.privacySettings().erase(.event(fixture.secret.id))
      let head = try fixture.store.head()
      let again = try fixture.events.privacySettings().erase(.event(fixture.secret.id))
      #expect(again.erasedPositions.isEmpty && again.record == nil && again.removal == nil)
      #expect(try fixture.store.head() == head)
    }
  }

  @Test func aCalendarsErasureTakesItsItemsAndTheRecordsThatPutItemsInIt() throws {
    try withFixture { fixture in
      let events = fixture.events
      let elsewhere = try events.save(EventCalendar(title: "Elsewhere"))
      // An event saved into the calendar, then moved out: its record in the calendar is erased, its
      // later state elsewhere is not.
      var moved = try events.save(
        Event(
          calendarID: fixture.calendar.id, title: "Moved QZX7", start: local(2026, 5, 1, 9),
          end: local(2026, 5, 1, 10), timeZone: nil), span: .thisEvent)
      moved.calendarID = elsewhere.id
      moved.title = "Moved out"
      moved = try events.save(moved, span: .thisEvent)
      let reminders = try events.save(EventCalendar(title: "Tasks", allowedEntityTypes: .reminders))
      _ = reminders
      let erasure = try events.privacySettings().erase(.calendar(fixture.calendar.id))
      #expect(erasure.removal != nil)
      #expect(try events.calendar(withID: fixture.calendar.id) == nil)
      #expect(try events.event(withID: fixture.kept.id) == nil, "removed with its calendar")
      #expect(try events.event(withID: moved.id)?.title == "Moved out", "its state elsewhere is kept")
      #expect(try fixture.store.verify().isIntact)
      #expect(try fixture.store.verifyProjections().isConsistent)
      for record in try fixture.store.records(from: 1, limit: .max) {
        let bytes = try fixture.store.environmentValue(at: record.position.rawValue)
        #expect(!contains(bytes, "QZX7") && !contains(bytes, "Private"), "record \(record.position)")
      }
    }
  }

  @Test func aFarSeriesThatMovedTheIndexHorizonReplaysToTheSameIndexOnceErased() throws {
    try withFixture { fixture in
      var series = Event(
        calendarID: fixture.calendar.id, title: "Far QZX7", start: local(2041, 1, 7, 9), end: local(2041, 1, 9, 9),
        timeZone: "Europe/Berlin")
      series.recurrenceRules = [try rule("FREQ=WEEKLY")]
      let saved = try fixture.events.save(series, span: .thisEvent)
      let open = try fixture.events.save(
        {
          var weekly = try fixture.events.event(withID: fixture.kept.id)!
          weekly.recurrenceRules = [try rule("FREQ=DAILY")]
          return weekly
        }(), span: .futureEvents)
      _ = open
      try fixture.events.privacySettings().erase(.event(saved.id))
      #expect(try fixture.store.verifyProjections().isConsistent)
      let digests = try fixture.store.projectionDigests()
      _ = try fixture.store.rebuildProjections()
      #expect(try fixture.store.projectionDigests() == digests, "a rebuild gives the bytes the store had")
    }
  }

  /// The review found that erasing a series split with `.futureEvents` left the later part live,
  /// with the same title and notes. The parts split from it are removed and erased with it.
  @Test func erasingASeriesErasesThePartsSplitFromIt() throws {
    try withFixture { fixture in
      var series = Event(
        calendarID: fixture.calendar.id, title: "Therapy ZXQ9", start: local(2026, 5, 4, 9),
        end: local(2026, 5, 4, 10), timeZone: "Europe/Berlin")
      series.notes = "notes PLM4"
      series.recurrenceRules = [try rule("FREQ=WEEKLY;COUNT=10")]
      let saved = try fixture.events.save(series, span: .thisEvent)
      let window = EventPredicate(
        start: local(2026, 5, 1, 0).wallClockSeconds, end: local(2026, 8, 1, 0).wallClockSeconds,
        calendars: [fixture.calendar.id])
      func occurrences() throws -> [Event] {
        try fixture.events.events(matching: window).filter { $0.title == "Therapy ZXQ9" }
      }
      var third = try occurrences()[2]
      third.location = "Room B"
      try fixture.events.save(third, span: .futureEvents)
      var sixth = try occurrences()[5]
      sixth.location = "Room C"
      try fixture.events.save(sixth, span: .futureEvents)
      let parts = Set(try occurrences().map(\.id))
      #expect(parts.count == 3, "the series and two parts split from it")

      let erasure = try fixture.events.privacySettings().erase(.event(saved.id))
      #expect(erasure.continuations.count == 2)
      #expect(erasure.continuations.allSatisfy { $0.removal != nil && $0.record != nil })
      #expect(try occurrences().isEmpty, "nothing of the series is left")
      for position in 1...(try fixture.store.head().position.rawValue) {
        let bytes = try fixture.store.environmentValue(at: position)
        #expect(!contains(bytes, "ZXQ9") && !contains(bytes, "PLM4"), "record \(position)")
      }
      #expect(try fixture.store.verify().isIntact)
      #expect(try fixture.store.verifyProjections().isConsistent)
    }
  }

  /// The review found the `contentErased` record kept the erased event's exact duration when it
  /// was its calendar's longest (the index bound). The record carries a coarse bound instead, the
  /// store's index is raised to it, and a rebuild reaches the same bytes.
  @Test func anErasureKeepsNoExactDurationOfWhatItErased() throws {
    try withFixture { fixture in
      // 1 h 23 min 17 s: longer than anything else in the calendar.
      let odd = try fixture.events.save(
        Event(
          calendarID: fixture.calendar.id, title: "Odd QZX7", start: local(2026, 4, 1, 9),
          end: LocalDateTime(year: 2026, month: 4, day: 1, hour: 10, minute: 23, second: 17), timeZone: "Europe/Berlin"),
        span: .thisEvent)
      let erasure = try fixture.events.privacySettings().erase(.event(odd.id))
      let record = try fixture.store.record(at: try #require(erasure.record))
      let bounds = try #require(try RangeBounds(payload: record.payload.bytes.span.bytes))
      let seconds = bounds.bounds.filter { $0.calendar == fixture.calendar.id }.map(\.seconds)
      #expect(!seconds.isEmpty)
      #expect(!seconds.contains(4_997), "\(seconds)")
      #expect(seconds.allSatisfy { $0 == 7_200 || $0 & ($0 - 1) == 0 }, "coarse: \(seconds)")
      #expect(try fixture.store.verifyProjections().isConsistent)
      let digests = try fixture.store.projectionDigests()
      _ = try fixture.store.rebuildProjections()
      #expect(try fixture.store.projectionDigests() == digests, "a rebuild gives the bytes the store had")
      // Queries still find what overlaps.
      let kept = try fixture.events.events(
        matching: EventPredicate(
          start: fixture.kept.start!.wallClockSeconds - 86_400, end: fixture.kept.end!.wallClockSeconds + 86_400))
      #expect(kept.contains { $0.id == fixture.kept.id })
    }
  }

  @Test func recordsWrittenBeforeFormat3AreErasedWithTheirHashKeptButNotProvable() throws {
    let directory = TemporaryDirectory()
    let signer = try CheckpointSigner.generate(name: "legacy.test/log")
    var legacy = StoreOptions(durability: .noSync, checkpointSigner: signer)
    legacy.writesLegacyRecords = true
    let secret: Event
    let checkpoint: SignedNote
    do {
      let store = try Store.create(at: directory.storePath, options: legacy)
      let fixture = try Fixture(store, signer: signer)
      secret = fixture.secret
      #expect(try store.records(from: 1, limit: .max).allSatisfy { $0.header.formatVersion == 1 })
      checkpoint = try #require(try store.latestCheckpoint())
    }
    let store = try Store.open(
      at: directory.storePath, options: StoreOptions(durability: .noSync, checkpointSigner: signer))
    let erasure = try EventStore(store: store).privacySettings().erase(.event(secret.id))
    #expect(erasure.erasedPositions.count == 2)
    for position in erasure.erasedPositions {
      let record = try store.record(at: position)
      #expect(record.header.content == .erasedUnverifiable)
      #expect(record.header.formatVersion == 3 && record.kind == .eventSaved)
      #expect(!contains(try store.environmentValue(at: position.rawValue), "QZX7"))
      let (proven, _) = try store.proveRecord(at: position).check(logKey: signer.verifier)
      #expect(proven.header.content == .erasedUnverifiable)
    }
    #expect(try store.verify(since: try Checkpoint.verified(checkpoint, by: signer.verifier)).isIntact)
    #expect(try store.verifyProjections().isConsistent)
  }
}

@Suite("Erased records: what is left of them is proven, or named unproven")
struct ErasedRecordBindingTests {
  /// A store whose content saves were written in format 1 and erased by a store that binds them
  /// (`binding`) or, as versions before the binding did, does not.
  func legacyErased(binding: Bool) throws -> (TemporaryDirectory, [LogPosition]) {
    let directory = TemporaryDirectory()
    var legacy = StoreOptions(durability: .noSync)
    legacy.writesLegacyRecords = true
    let secret: Event
    do {
      let store = try Store.create(at: directory.storePath, options: legacy)
      secret = try ErasureTests.Fixture(store, signer: try CheckpointSigner.generate(name: "x/log")).secret
    }
    let store = try Store.open(at: directory.storePath, options: binding ? StoreOptions(durability: .noSync) : legacy)
    let erasure = try EventStore(store: store).privacySettings().erase(.event(secret.id))
    #expect(erasure.erasedPositions.count == 2)
    return (directory, erasure.erasedPositions)
  }

  /// The stored bytes of the record at `position`.
  func bytes(at position: LogPosition, in path: String) throws -> [UInt8] {
    var bytes: [UInt8] = []
    try Damage.withLog(path) { txn, log, _ in
      bytes = try #require(try txn.value(forKey: BigEndianKey(position.rawValue), in: log))
    }
    return bytes
  }

  @Test func aFormat3RecordPassedOffAsErasedFromFormat1IsCaught() throws {
    // The review's attack: an erased record of format 3 rewritten into the form kept for records
    // erased from format 1 or 2 (whose hash is not recomputed), its time and actor changed, its
    // stored hash kept. Neither verify nor a kept checkpoint may pass it.
    let directory = TemporaryDirectory()
    let signer = try CheckpointSigner.generate(name: "forge.test/log")
    let position: LogPosition
    let checkpoint: SignedNote
    do {
      let store = try Store.create(
        at: directory.storePath, options: StoreOptions(durability: .noSync, checkpointSigner: signer))
      let fixture = try ErasureTests.Fixture(store, signer: signer)
      position = try ErasureTests().saves(of: fixture.secret.id, in: store)[0]
      try fixture.events.privacySettings().erase(.event(fixture.secret.id))
      checkpoint = try #require(try store.latestCheckpoint())
      #expect(try store.verify().isIntact)
    }
    let erased = try bytes(at: position, in: directory.storePath)
    var principals = PrincipalCache()
    let layout = try RecordCodec.sealedLayout(erased.span.bytes, principals: &principals)
    #expect(layout.form == .erased)
    var forged = Array(erased[0..<layout.formOffset])
    forged[9] ^= 0x40  // the timestamp's high byte: another year
    forged.append(RecordCodec.ContentForm.erasedLegacy.rawValue)
    forged.append(1)
    forged.append(contentsOf: erased[(layout.facts.lowerBound - 4)..<layout.facts.upperBound])
    forged.append(contentsOf: erased[(erased.count - 64)...])
    try Damage.withLog(directory.storePath) { txn, log, _ in
      try txn.put(forged, forKey: BigEndianKey(position.rawValue), in: log)
    }
    let store = try Store.open(at: directory.storePath, options: StoreOptions(readOnly: true))
    #expect(try store.record(at: position).header.content == .erasedUnverifiable)
    let report = try store.verify()
    #expect(report.problem?.kind == .hashMismatch)
    #expect(report.problem?.position == position)
    let since = try store.verify(since: try Checkpoint.verified(checkpoint, by: signer.verifier))
    #expect(since.problem?.kind == .hashMismatch)
  }

  @Test func whatErasureLeavesOfAFormat1RecordIsBoundByItsErasure() throws {
    let (directory, positions) = try legacyErased(binding: true)
    let store = try Store.open(at: directory.storePath, options: StoreOptions(readOnly: true))
    let report = try store.verify()
    #expect(report.isIntact)
    #expect(report.unprovenRecordCount == 0 && report.unprovenRecords.isEmpty)
    // Its timestamp, then a kept field: the record's own hash covers neither any more, its
    // erasure's binding does.
    for offset in [12, -70] {
      try Damage.flipByte(of: positions[0].rawValue, at: offset, in: directory.storePath)
      let damaged = try Store.open(at: directory.storePath, options: StoreOptions(readOnly: true)).verify()
      #expect(damaged.problem?.kind == .hashMismatch, "offset \(offset)")
      #expect(damaged.problem?.position == positions[0], "offset \(offset)")
      try Damage.flipByte(of: positions[0].rawValue, at: offset, in: directory.storePath)
    }
    #expect(try Store.open(at: directory.storePath, options: StoreOptions(readOnly: true)).verify().isIntact)
  }

  @Test func anErasureFromBeforeTheBindingLeavesItsFormat1RecordsNamedUnproven() throws {
    let (directory, positions) = try legacyErased(binding: false)
    let report = try Store.open(at: directory.storePath, options: StoreOptions(readOnly: true)).verify()
    #expect(report.isIntact)
    #expect(report.unprovenRecordCount == 2)
    #expect(report.unprovenRecords == positions)
  }
}
