import Kalends
import KalendsSynthetic
import KalendsTestSupport
import Testing

@Suite("Rebuilds load the projections in bulk, byte for byte as record-by-record application")
struct BulkRebuildTests {
  /// A history that replaces, moves and removes items, removes a calendar holding some, detaches
  /// and excepts occurrences, shortens a long event and moves the horizon past open series.
  func writeHistory(_ fixture: EventFixture) throws {
    let events = fixture.events
    let home = try events.save(EventCalendar(title: "Home"))
    let trip = try events.save(EventCalendar(title: "Trip"))
    func event(
      _ title: String, _ calendar: EventCalendar, _ start: LocalDateTime, _ end: LocalDateTime,
      zone: String? = "Europe/Berlin", allDay: Bool = false, rrule: String? = nil
    ) throws -> Event {
      var event = Event(
        calendarID: calendar.id, title: title, start: start, end: end, timeZone: zone, isAllDay: allDay)
      if let rrule { event.recurrenceRules = [try rule(rrule)] }
      return try events.save(event, span: .futureEvents)
    }
    var long = try event("conference", fixture.calendar, local(2026, 4, 1, 9), local(2026, 4, 4, 17))
    long.end = local(2026, 4, 1, 10)
    long = try events.save(long, span: .thisEvent)
    var moving = try event("dentist", fixture.calendar, local(2026, 2, 2, 8), local(2026, 2, 2, 9))
    moving.calendarID = home.id
    moving.start = local(2026, 2, 3, 8)
    moving.end = local(2026, 2, 3, 8)
    moving = try events.save(moving, span: .thisEvent)
    let removed = try event("cancelled", home, local(2026, 5, 1), local(2026, 5, 2), zone: nil, allDay: true)
    try events.remove(removed, span: .thisEvent)
    _ = try event("holiday", home, local(2026, 8, 1), local(2026, 8, 22), zone: nil, allDay: true)
    _ = try event("floating", home, local(2026, 6, 1, 9), local(2026, 6, 1, 10), zone: nil)
    let weekly = try event(
      "weekly", fixture.calendar, local(2026, 1, 5, 18), local(2026, 1, 5, 19), zone: "America/New_York",
      rrule: "FREQ=WEEKLY;BYDAY=MO,TH")
    var moved = try #require(try events.event(withID: weekly.id, occurrence: local(2026, 1, 8, 18)))
    moved.start = local(2026, 1, 9, 7)
    moved.end = local(2026, 1, 9, 8)
    try events.save(moved, span: .thisEvent)
    let skipped = try #require(try events.event(withID: weekly.id, occurrence: local(2026, 1, 12, 18)))
    try events.remove(skipped, span: .thisEvent)
    let daily = try event(
      "daily", home, local(2026, 3, 1, 7), local(2026, 3, 1, 8), rrule: "FREQ=DAILY;UNTIL=20280301T000000Z")
    let later = try #require(try events.event(withID: daily.id, occurrence: local(2027, 3, 1, 7)))
    try events.save(later, span: .futureEvents)
    _ = try event(
      "monthly", trip, local(2026, 1, 30, 9), local(2026, 1, 30, 10), rrule: "FREQ=MONTHLY;BYDAY=FR;BYSETPOS=-1")
    _ = try event("trip", trip, local(2026, 9, 1), local(2026, 9, 8), zone: "Asia/Tokyo")
    try events.remove(trip)
    _ = try event("far", fixture.calendar, local(2034, 6, 1, 9), local(2034, 6, 1, 10))
  }

  @Test func aRebuildLeavesTheBytesOfRecordByRecordApplication() throws {
    try withStore { store, _ in
      try writeHistory(try EventFixture(store))
      let inline = try store.projectionDigests()
      #expect(try store.indexedInstanceCount() > 500)
      #expect((inline["range.open"]?.entries ?? 0) > 0 && (inline["objects.byExternalID"]?.entries ?? 0) > 0)
      #expect(try store.rebuildProjections() == Int(try store.head().position.rawValue))
      #expect(try store.projectionDigests() == inline)
      #expect(try store.verifyProjections().isConsistent)
    }
  }

  /// Chunks of 7 entries: every loader stops and resumes across transactions in each of its
  /// databases (`objects` between its three, a run of instances between two blocks, the items, the
  /// replayed privacy records), and the result is still the bytes of record-by-record application.
  @Test func aLoadInSmallChunksLeavesTheSameBytes() throws {
    var options = StoreOptions(durability: .noSync)
    options.bulkLoadChunk = 7
    try withStore(options) { store, _ in
      let fixture = try EventFixture(store)
      try writeHistory(fixture)
      _ = try fixture.events.save(try fixture.meeting(rrule: "FREQ=DAILY;COUNT=400"), span: .futureEvents)
      let privacy = try PrivacyFixture(store)
      let app = try privacy.owner.session(for: PrivacyFixture.planner)
      for _ in 0..<3 { #expect(throws: StoreError.self) { try app.event(withID: privacy.existing.id) } }
      for index in 0..<8 {
        try privacy.owner.privacySettings().setAccess(
          index % 2 == 0 ? .denied : .fullAccess, for: PrivacyFixture.planner, service: .reminders)
      }
      let inline = try store.projectionDigests()
      #expect((inline["permissions.history"]?.entries ?? 0) > 7 && (inline["range.items"]?.entries ?? 0) > 7)
      #expect(try store.rebuildProjections() == Int(try store.head().position.rawValue))
      #expect(try store.projectionDigests() == inline)
      #expect(try store.projectionCheckpoints().values.allSatisfy { $0 == (try store.head().position) })
    }
  }

  /// A rebuild lists in `range.items` first the events whose fields tell that they own keys, then
  /// puts in those only indexing can tell about: series with exception dates or detached
  /// occurrences, which may own keys or none. In chunks of one entry and of many, each kind comes
  /// out as record-by-record application lists it.
  @Test(arguments: [1, 1_000])
  func itemsOnlyIndexingCanTellAboutAreListedAsIndexingFindsThem(chunk: Int) throws {
    var options = StoreOptions(durability: .noSync)
    options.bulkLoadChunk = chunk
    try withStore(options) { store, _ in
      let fixture = try EventFixture(store)
      let events = fixture.events
      func series(_ title: String, _ rrule: String) throws -> Event {
        try events.save(try fixture.meeting(title, rrule: rrule), span: .futureEvents)
      }
      // Its first occurrence excepted: listed through its later ones.
      let excepted = try series("excepted", "FREQ=DAILY;COUNT=3")
      try events.remove(
        try #require(try events.event(withID: excepted.id, occurrence: local(2026, 3, 29, 9))), span: .thisEvent)
      // Every occurrence excepted: owns no key, not listed.
      let emptied = try series("emptied", "FREQ=DAILY;COUNT=2")
      for day in [29, 30] {
        try events.remove(
          try #require(try events.event(withID: emptied.id, occurrence: local(2026, 3, day, 9))), span: .thisEvent)
      }
      // Its only occurrence detached with times of its own: listed through it.
      let detached = try series("detached", "FREQ=WEEKLY;COUNT=1")
      var moved = try #require(try events.event(withID: detached.id, occurrence: local(2026, 3, 29, 9)))
      moved.start = local(2026, 4, 2, 14)
      moved.end = local(2026, 4, 2, 15)
      try events.save(moved, span: .thisEvent)
      // Open, with an excepted occurrence: listed.
      let open = try series("open", "FREQ=WEEKLY")
      try events.remove(
        try #require(try events.event(withID: open.id, occurrence: local(2026, 4, 5, 9))), span: .thisEvent)
      _ = try events.save(try fixture.meeting("single"), span: .thisEvent)
      let inline = try store.projectionDigests()
      let live = try [excepted, emptied, detached, open].filter { try events.event(withID: $0.id) != nil }
      #expect(live.count == 4, "the emptied series stays, with no occurrence")
      #expect(inline["range.items"]?.entries == 4)
      #expect(try store.rebuildProjections() == Int(try store.head().position.rawValue))
      #expect(try store.projectionDigests() == inline)
    }
  }

  @Test func anItemOwnsOneStateEntryAndItsKeysAreRecomputedToRemoveIt() throws {
    try withStore { store, _ in
      let fixture = try EventFixture(store)
      var event = try fixture.events.save(try fixture.meeting(rrule: "FREQ=DAILY;COUNT=40"), span: .futureEvents)
      let digests = try store.projectionDigests()
      #expect(digests["range.items"]?.entries == 1)
      #expect(try store.indexedInstanceCount() == 40)
      event.recurrenceRules = []
      event = try fixture.events.save(event, span: .futureEvents)
      #expect(try store.indexedInstanceCount() == 1)
      try fixture.events.remove(event, span: .futureEvents)
      let after = try store.projectionDigests()
      #expect(after["range.items"]?.entries == 0 && after["range.instances"]?.entries == 0)
      #expect(try store.indexedInstanceCount() == 0)
    }
  }
}

@Suite("The instance blocks of the date-range index")
struct InstanceBlockTests {
  /// The bulk loader sorts each run by start a byte at a time over the bits that vary, then orders
  /// equal starts by item: a run with many equal starts (small and large groups) and starts
  /// centuries apart must come out as record-by-record application leaves it.
  @Test func equalStartsAndStartsCenturiesApartSortLikeRecordByRecord() throws {
    try withStore { store, _ in
      let fixture = try EventFixture(store)
      func save(_ start: LocalDateTime) throws {
        let end = LocalDateTime(wallClockSeconds: start.wallClockSeconds + 3_600)
        _ = try fixture.events.save(
          Event(calendarID: fixture.calendar.id, title: "t", start: start, end: end, timeZone: "UTC"),
          span: .thisEvent)
      }
      for _ in 0..<40 { try save(local(2026, 1, 1, 10)) }
      for _ in 0..<5 { try save(local(2026, 1, 2, 10)) }
      for year in [1601, 1999, 2026, 2700, 9000] { try save(local(year, 6, 1, 9)) }
      let inline = try store.projectionDigests()
      #expect(try store.indexedInstanceCount() == 50)
      try store.rebuildProjections()
      #expect(try store.projectionDigests() == inline)
      let found = try fixture.events.instances(matching: EventPredicate(start: utc(2026, 1, 1), end: utc(2026, 1, 3)))
      #expect(found.count == 45)
      #expect(found.map(\.id) == found.sorted { ($0.start, $0.id) < ($1.start, $1.id) }.map(\.id))
    }
  }

  /// A run long enough for the radix sort's wide digits (over 16,384 instances): an hourly series
  /// of 20,000 occurrences over two years, and single events at random times, a third of them at
  /// the very start of an occurrence, in the same run. With 300 of them, the calendar's items are
  /// indexed in several units, whose parts the writer merges and codes; with 12, in one unit, whose
  /// worker codes its blocks.
  @Test(arguments: [300, 12])
  func aLongRunSortsLikeRecordByRecord(singles: Int) throws {
    try withStore { store, _ in
      let fixture = try EventFixture(store)
      let series = try fixture.meeting(
        zone: "UTC", rrule: "FREQ=DAILY;BYHOUR=\((0..<24).map(String.init).joined(separator: ","));COUNT=20000")
      let first = try #require(try fixture.events.save(series, span: .futureEvents).start).wallClockSeconds
      var random = SeededGenerator(seed: 7)
      for index in 0..<singles {
        let hour = Int64(random.next() % 20_000)
        let start = try #require(
          LocalDateTime(wallClockSeconds: first + hour * 3_600 + (index % 3 == 0 ? 0 : Int64(random.next() % 3_600))))
        let end = LocalDateTime(wallClockSeconds: start.wallClockSeconds + 3_600)
        _ = try fixture.events.save(
          Event(calendarID: fixture.calendar.id, title: "t", start: start, end: end, timeZone: "UTC"),
          span: .thisEvent)
      }
      let inline = try store.projectionDigests()
      #expect(try store.indexedInstanceCount() == 20_000 + singles)
      try store.rebuildProjections()
      #expect(try store.projectionDigests() == inline)
    }
  }

  /// Hundreds of instances in one run (one calendar, one clock, one duration class), saved in a
  /// random order, then some removed and some moved. After every edit, the blocks they are packed
  /// in (cuts chosen by content, stretches longer than a block split by count) must be those a
  /// rebuild writes from the sorted whole: checked edit by edit, because a later edit in the same
  /// stretch rewrites it and would hide a wrong one. Every instance must still be found.
  @Test(arguments: [11, 12, 13] as [UInt64])
  func blocksDependOnTheInstancesOnlyNotOnTheOrderOfEdits(seed: UInt64) throws {
    try withStore { store, _ in
      let fixture = try EventFixture(store)
      var random = SeededGenerator(seed: seed)
      func checkLayout(_ step: String) throws {
        let inline = try store.projectionDigests()
        try store.rebuildProjections()
        #expect(try store.projectionDigests() == inline, "blocks after \(step)")
      }
      func shifted(_ time: LocalDateTime?, by seconds: Int64) -> LocalDateTime? {
        LocalDateTime(wallClockSeconds: time!.wallClockSeconds + seconds)
      }
      var saved: [Event] = []
      for (count, slot) in (0..<240).shuffled(using: &random).enumerated() {
        let start = shifted(local(2026, 1, 1), by: Int64(slot) * 1_800)
        saved.append(
          try fixture.events.save(
            Event(
              calendarID: fixture.calendar.id, title: "slot \(slot)", start: start,
              end: shifted(start, by: 1_800), timeZone: "UTC"),
            span: .thisEvent))
        if count % 4 == 3 { try checkLayout("saving slot \(slot)") }
      }
      saved.shuffle(using: &random)
      for event in saved.prefix(60) {
        try fixture.events.remove(event, span: .thisEvent)
        try checkLayout("removing \(event.title)")
      }
      for var event in saved[60..<100] {
        event.start = shifted(event.start, by: 600)
        event.end = shifted(event.end, by: 600)
        try fixture.events.save(event, span: .thisEvent)
        try checkLayout("moving \(event.title)")
      }
      #expect(try store.indexedInstanceCount() == 180)
      let blocks = try #require(try store.projectionDigests()["range.instances"]).entries
      #expect(blocks >= 180 / 48 && blocks < 180, "packed in blocks: \(blocks)")
      let found = try fixture.events.instances(matching: EventPredicate(start: utc(2025, 12, 31), end: utc(2026, 2, 1)))
      #expect(found.count == 180)
      #expect(Set(found.map(\.id)) == Set(saved[60...].map(\.id)))
    }
  }
}

@Suite("Bulk rebuilds of random histories")
struct RandomHistoryRebuildTests {
  /// Random saves, moves between calendars, removals of items and of calendars holding them, of
  /// events and reminders, with titles reused as external identifiers: the bulk loaders resolve the
  /// final states at the end, so every order of these must leave the bytes of record-by-record
  /// application.
  @Test(arguments: [1, 2, 3, 4] as [UInt64])
  func aRebuildOfARandomHistoryLeavesTheSameBytes(seed: UInt64) throws {
    try withStore { store, _ in
      let events = EventStore(store: store)
      var random = SeededGenerator(seed: seed)
      var calendars: [EventCalendar] = []
      var lists: [EventCalendar] = []
      var saved: [Event] = []
      var reminders: [Reminder] = []
      for step in 0..<400 {
        switch Int.random(in: 0..<20, using: &random) {
        case 0...1 where calendars.count < 6:
          calendars.append(try events.save(EventCalendar(title: "Calendar \(step)")))
        case 2...3 where lists.count < 3:
          lists.append(try events.save(EventCalendar(title: "List \(step)", allowedEntityTypes: .reminders)))
        case 4 where calendars.count > 1:
          let removed = calendars.remove(at: Int.random(in: 0..<calendars.count, using: &random))
          try events.remove(removed)
          saved.removeAll { $0.calendarID == removed.id }
        case 5 where lists.count > 1:
          let removed = lists.remove(at: Int.random(in: 0..<lists.count, using: &random))
          try events.remove(removed)
          reminders.removeAll { $0.calendarID == removed.id }
        case 6...7 where !saved.isEmpty:
          var event = saved.remove(at: Int.random(in: 0..<saved.count, using: &random))
          if Bool.random(using: &random), let calendar = calendars.randomElement(using: &random) {
            event.calendarID = calendar.id
          }
          event.title = "Moved \(step)"
          event.start = local(2026, 1 + step % 12, 1 + step % 27, 9)
          event.end = local(2026, 1 + step % 12, 1 + step % 27, 10 + step % 3)
          saved.append(try events.save(event, span: .futureEvents))
        case 8 where !saved.isEmpty:
          let event = saved.remove(at: Int.random(in: 0..<saved.count, using: &random))
          try events.remove(event, span: .futureEvents)
        case 9 where !reminders.isEmpty:
          let reminder = reminders.remove(at: Int.random(in: 0..<reminders.count, using: &random))
          if Bool.random(using: &random) {
            try events.remove(reminder)
          } else {
            var changed = reminder
            changed.calendarID = lists.randomElement(using: &random)?.id ?? changed.calendarID
            reminders.append(try events.save(changed))
          }
        case 10...11 where !lists.isEmpty:
          let list = lists.randomElement(using: &random)!
          reminders.append(try events.save(Reminder(calendarID: list.id, title: "Task \(step % 7)")))
        default:
          guard let calendar = calendars.randomElement(using: &random) else { continue }
          var event = Event(
            calendarID: calendar.id, title: "Event \(step % 9)", start: local(2026, 1 + step % 12, 1 + step % 28, 8),
            end: local(2026, 1 + step % 12, 1 + step % 28, 9),
            timeZone: Bool.random(using: &random) ? "Europe/Berlin" : nil)
          if step % 5 == 0 { event.recurrenceRules = [try rule("FREQ=WEEKLY;COUNT=\(1 + step % 30)")] }
          saved.append(try events.save(event, span: .futureEvents))
        }
      }
      let inline = try store.projectionDigests()
      #expect((inline["objects"]?.entries ?? 0) > 100)
      #expect(try store.rebuildProjections() == Int(try store.head().position.rawValue))
      #expect(try store.projectionDigests() == inline)
    }
  }
}

extension RandomHistoryRebuildTests {
  /// Events starting in random years and at the first and last second of years, some of them
  /// open weekly series, then two that each move the horizon (two years past its event's year) by
  /// a year. The loader works out the years only for records that can move it, so each start must
  /// move it exactly as record-by-record application does.
  @Test(arguments: [5, 6] as [UInt64])
  func startsAroundTheHorizonMoveItAsRecordByRecord(seed: UInt64) throws {
    try withStore { store, _ in
      let events = EventStore(store: store)
      var random = SeededGenerator(seed: seed)
      let calendar = try events.save(EventCalendar(title: "Years"))
      let thisYear = LocalDateTime(wallClockSeconds: Timestamp.now().rawValue / 1_000_000)!.year
      var starts: [LocalDateTime] = (0..<90).map { step in
        let year = thisYear + Int.random(in: -3...4, using: &random)
        switch step % 3 {
        case 0: return local(year, 1, 1)
        case 1: return LocalDateTime(wallClockSeconds: local(year, 1, 1).wallClockSeconds - 1)!
        default: return local(year, Int.random(in: 1...12, using: &random), Int.random(in: 1...28, using: &random), 9)
        }
      }
      // Past every random start (the horizon is then January 1, thisYear + 9), then on January 1
      // of the year before the horizon's: it moves it on to thisYear + 10 (a horizon is at most
      // ten years past its record's year).
      starts += [local(thisYear + 7, 1, 1), local(thisYear + 8, 1, 1)]
      for (step, start) in starts.enumerated() {
        var event = Event(
          calendarID: calendar.id, title: "Event \(step)", start: start,
          end: LocalDateTime(wallClockSeconds: start.wallClockSeconds + 3_600)!,
          timeZone: step % 2 == 0 ? "Europe/Berlin" : nil)
        if step % 4 == 0 { event.recurrenceRules = [try rule("FREQ=WEEKLY")] }
        _ = try events.save(event, span: .futureEvents)
      }
      let inline = try store.projectionDigests()
      #expect(try store.rebuildProjections() == Int(try store.head().position.rawValue))
      #expect(try store.projectionDigests() == inline)
    }
  }
}

@Suite("Interrupted bulk loads")
struct InterruptedBulkLoadTests {
  /// What a bulk load killed between its chunks leaves: one projection loaded and checkpointed,
  /// another marked as loading (version 0) with whatever it had written. The next open empties that
  /// one and loads it again; the result is the bytes of record-by-record application.
  @Test func aLoadInterruptedBetweenChunksStartsOverAtTheNextOpen() throws {
    let directory = TemporaryDirectory()
    let options = StoreOptions(durability: .noSync)
    let inline: [String: ProjectionDigest]
    do {
      let store = try Store.create(at: directory.storePath, options: options)
      try BulkRebuildTests().writeHistory(try EventFixture(store))
      inline = try store.projectionDigests()
      try store.write { txn, _ in
        try ProjectionCheckpoint(version: 0, position: .none).save("range", meta: store.meta, in: &txn)
      }
    }
    let reopened = try Store.open(at: directory.storePath, options: options)
    let head = try reopened.head().position
    #expect(try reopened.projectionCheckpoints()["range"] == head)
    #expect(try reopened.projectionDigests() == inline)
    #expect(try reopened.verifyProjections().isConsistent)
  }
}
