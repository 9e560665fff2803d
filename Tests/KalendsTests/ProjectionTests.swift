import Kalends
import KalendsTestSupport
import LMDB
import Synchronization
import Testing

@Suite("Projections")
struct ProjectionTests {
  func populate(_ store: Store) throws -> [EventCalendar] {
    let events = EventStore(store: store)
    var calendars = try (0..<30).map { try events.save(EventCalendar(title: "Calendar \($0)")) }
    for index in stride(from: 0, to: 30, by: 3) { try events.remove(calendars[index]) }
    for index in stride(from: 1, to: 30, by: 3) {
      calendars[index].title += " (renamed)"
      calendars[index] = try events.save(calendars[index])
    }
    return try events.calendars()
  }

  /// Writes `checkpoint` as the object projection's stored checkpoint and empties its state,
  /// through LMDB directly.
  func replaceObjectsCheckpoint(with checkpoint: [UInt8], in path: String) throws {
    let environment = try Environment(path: path, options: EnvironmentOptions(maxDatabases: 64))
    let meta = try environment.openDatabase(named: "meta", options: [])
    let objects = try environment.openDatabase(named: "objects", options: [])
    try environment.write { txn in
      try txn.put(checkpoint, forKey: "projection:objects", in: meta)
      try txn.removeAll(in: objects)
    }
  }

  @Test func everyWriteLeavesEveryProjectionAtTheHead() throws {
    try withStore { store, _ in
      _ = try populate(store)
      let head = try store.head().position
      #expect(
        try store.projectionCheckpoints() == [
          "objects": head, "range": head, "permissions": head, "retention": head, "contacts": head,
          "search": head, "outbox": head, "push": head,
        ])
    }
  }

  @Test func aRebuildFromTheLogGivesTheSameState() throws {
    try withStore { store, _ in
      let before = try populate(store)
      #expect(before.count == 20)
      let replayed = try store.rebuildProjections()
      #expect(replayed == Int(try store.head().position.rawValue))
      #expect(try EventStore(store: store).calendars() == before)
      #expect(
        try store.projectionCheckpoints() == [
          "objects": try store.head().position, "range": try store.head().position,
          "permissions": try store.head().position, "retention": try store.head().position,
          "contacts": try store.head().position, "search": try store.head().position,
          "outbox": try store.head().position, "push": try store.head().position,
        ])
    }
  }

  @Test func aRebuildReplaysPrivacyDecisionsBesideTheBulkLoadsAndLeavesTheSameBytes() throws {
    try withStore { store, _ in
      let fixture = try PrivacyFixture(store)
      _ = try populate(store)
      let app = try fixture.owner.session(for: PrivacyFixture.planner)
      #expect(throws: StoreError.self) { try app.event(withID: fixture.existing.id) }
      #expect(try app.requestFullAccess(to: .calendars, prompter: ScriptedPrompter(.allow)) == .fullAccess)
      #expect(try app.requestFullAccess(to: .reminders, prompter: ScriptedPrompter(.deny)) == .denied)
      try fixture.owner.privacySettings().setAccess(.writeOnly, for: PrivacyFixture.planner, service: .calendars)
      try fixture.owner.privacySettings().restrict(PrivacyFixture.planner, service: .reminders, policy: "school")
      try fixture.owner.register(Client(id: "com.example.other", name: "Other"))
      try fixture.owner.privacySettings().resetAccess(client: PrivacyFixture.planner, service: .calendars)
      let before = try store.projectionDigests()
      let session = { try fixture.owner.session(for: PrivacyFixture.planner) }
      let statuses = try Service.allCases.map { try session().authorizationStatus(for: $0) }
      #expect(before["permissions.timeline"]!.entries >= 4 && before["permissions.clients"]!.entries == 2)

      #expect(try store.rebuildProjections() == Int(try store.head().position.rawValue))
      #expect(try store.projectionDigests() == before)
      #expect(try Service.allCases.map { try session().authorizationStatus(for: $0) } == statuses)
      #expect(statuses == [.notDetermined, .restricted, .notDetermined])
      #expect(try store.projectionCheckpoints().values.allSatisfy { $0 == (try store.head().position) })
    }
  }

  @Test func aRebuildReportsReadingThenEachProjectionWritten() throws {
    try withStore { store, _ in
      _ = try populate(store)
      let head = Int(try store.head().position.rawValue)
      let states = Mutex<[RebuildProgress]>([])
      try store.rebuildProjections { state in states.withLock { $0.append(state) } }
      let reported = states.withLock { $0 }
      // Reading first, up to the head; then the eight projections written, one at a time.
      let reading = reported.prefix { if case .reading = $0 { true } else { false } }
      #expect(reading.last == .reading(done: head, total: head))
      let writing = reported.dropFirst(reading.count).map { state -> Int in
        guard case .writing(let done, 8) = state else { return -1 }
        return done
      }
      // A thread may write its loaders before another has read the log: the count then starts above 0.
      #expect(writing.last == 8 && writing.count >= 2)
      #expect(writing == Array((8 - writing.count + 1)...8))
    }
  }

  @Test func aProjectionOfAnotherVersionIsRebuiltWhenTheStoreOpens() throws {
    let directory = TemporaryDirectory()
    let before: [EventCalendar]
    do { before = try populate(try Store.create(at: directory.storePath)) }
    // Pretend the stored projection came from another version, and damage its state.
    try replaceObjectsCheckpoint(with: [0, 0, 0, 99] + [UInt8](repeating: 0, count: 8), in: directory.storePath)
    let reopened = try Store.open(at: directory.storePath)
    #expect(try EventStore(store: reopened).calendars() == before)
    #expect(
      try reopened.projectionCheckpoints() == [
        "objects": try reopened.head().position, "range": try reopened.head().position,
        "permissions": try reopened.head().position, "retention": try reopened.head().position,
        "contacts": try reopened.head().position, "search": try reopened.head().position,
        "outbox": try reopened.head().position, "push": try reopened.head().position,
      ])
  }

  @Test func aProjectionBehindTheLogCatchesUpWhenTheStoreOpens() throws {
    let directory = TemporaryDirectory()
    let before: [EventCalendar]
    do { before = try populate(try Store.create(at: directory.storePath)) }
    // Rewind the checkpoint to 5 and empty the state: only records 6… are applied again, so the
    // state must be exactly what those records imply.
    // The objects projection at its current version (6), position 5.
    try replaceObjectsCheckpoint(with: [0, 0, 0, 6, 0, 0, 0, 0, 0, 0, 0, 5], in: directory.storePath)
    let reopened = try Store.open(at: directory.storePath)
    let titles = try EventStore(store: reopened).calendars().map(\.title)
    #expect(titles == before.map(\.title).filter { !["Calendar 1", "Calendar 2", "Calendar 4"].contains($0) })
    #expect(try reopened.rebuildProjections() > 0)
    #expect(try EventStore(store: reopened).calendars() == before)
  }

  @Test func anObjectsStateIsReadFromTheLogRecordThatSavedIt() throws {
    let directory = TemporaryDirectory()
    let (first, second): (Event, Event)
    do {
      let fixture = try EventFixture(try Store.create(at: directory.storePath))
      first = try fixture.events.save(try fixture.meeting("First"), span: .thisEvent)
      var renamed = try fixture.events.save(try fixture.meeting("Second"), span: .thisEvent)
      renamed.title = "Second, renamed"
      second = try fixture.events.save(renamed, span: .thisEvent)
      // The entry holds the version, time, calendar and external identifier's digest, not a copy of
      // the state: that is the log's.
      let environment = try Environment(path: directory.storePath, options: EnvironmentOptions(maxDatabases: 64))
      let objects = try environment.openDatabase(named: "objects", options: [])
      let entry = try environment.read { txn in try txn.value(forKey: [2] + first.id.bytes, in: objects) }
      #expect(entry?.count == 33 + 16)
      #expect(entry.map { Array($0[0..<8]) } == withUnsafeBytes(of: first.version.rawValue.bigEndian, Array.init))
    }
    let reopened = try Store.open(at: directory.storePath)
    #expect(try EventStore(store: reopened).event(withID: second.id)?.title == "Second, renamed")
    #expect(try EventStore(store: reopened).event(withID: first.id)?.title == "First")
    // Point the first event's entry at the second's save: the read refuses it rather than
    // answering with another event's state.
    let environment = try Environment(path: directory.storePath, options: EnvironmentOptions(maxDatabases: 64))
    let objects = try environment.openDatabase(named: "objects", options: [])
    try environment.write { txn in
      var entry = try txn.value(forKey: [2] + first.id.bytes, in: objects)!
      entry.replaceSubrange(0..<8, with: withUnsafeBytes(of: second.version.rawValue.bigEndian, Array.init))
      try txn.put(entry, forKey: [2] + first.id.bytes, in: objects)
    }
    #expect {
      try EventStore(store: reopened).event(withID: first.id)
    } throws: { error in
      guard case StoreError.integrity(let problem) = error else { return false }
      return problem.position == second.version && problem.description.contains("kalends verify")
    }
    #expect(try !reopened.verifyProjections().isConsistent)
    #expect(try reopened.rebuildProjections() > 0)
    #expect(try EventStore(store: reopened).event(withID: first.id)?.title == "First")
  }

  @Test func aSavedStateWhoseTextIsNotUTF8IsRefusedAndChangesNothing() throws {
    try withStore { store, _ in
      let fixture = try EventFixture(store)
      let head = try store.head()
      for text in [[0xFF, 0xFE], [0x61, 0xC0, 0xAF], [0xED, 0xA0, 0x80]] as [[UInt8]] {
        // An overlong "/" and a UTF-16 surrogate are not UTF-8 either.
        var state = Payload()
        state.append(tag: 1, bytes: text)
        var payload = Payload()
        payload.append(tag: 1, bytes: ObjectID.random().bytes)
        payload.append(tag: 2, bytes: fixture.calendar.id.bytes)
        payload.append(tag: 5, bytes: state.bytes)
        #expect {
          try store.append(RecordDraft(kind: .eventSaved, principal: .person, payload: payload))
        } throws: { error in
          guard case StoreError.malformedPayload(let reason) = error else { return false }
          return reason.contains("not UTF-8")
        }
      }
      #expect(try store.head() == head)
    }
  }

  @Test func aWriteThatFailsLeavesTheProjectionsUntouched() throws {
    try withStore { store, _ in
      let events = EventStore(store: store)
      let saved = try events.save(EventCalendar(title: "Work"))
      var stale = saved
      stale.title = "Changed"
      _ = try events.save(stale)  // now `stale` is outdated too
      #expect(throws: StoreError.self) { try events.save(stale) }
      #expect(try events.calendars().map(\.title) == ["Changed"])
      #expect(try store.projectionCheckpoints()["objects"] == (try store.head().position))
    }
  }
}

@Suite("Projections: writes while another process rebuilds")
struct ProjectionGuardTests {
  @Test func aWriteIsRefusedWhileAProjectionIsNotAtTheHead() throws {
    try withStore { store, _ in
      let fixture = try EventFixture(store)
      // What a bulk load in another process leaves between its chunks: the range projection
      // marked as loading (version 0).
      try store.write { txn, _ in
        try ProjectionCheckpoint(version: 0, position: .none).save("range", meta: store.meta, in: &txn)
      }
      let head = try store.head().position
      let refused = StoreError.projectionsBehind("range", at: .none, head: head)
      #expect(throws: refused) { try fixture.events.save(try fixture.meeting(), span: .thisEvent) }
      #expect(throws: refused) { try store.append(.annotation("x")) }
      #expect(try store.head().position == head, "nothing was written")
      #expect(refused.category == .conflict)
      // Once the projection is rebuilt, writes go through again.
      try store.rebuildProjections()
      let saved = try fixture.events.save(try fixture.meeting(), span: .thisEvent)
      #expect(saved.version == head.next)
      #expect(try store.verifyProjections().divergent.isEmpty)
    }
  }
}
