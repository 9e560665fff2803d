import Kalends
import KalendsSynthetic
import Testing

/// The date-range index against brute force: random stores (single, floating, all-day, long and
/// recurring events, with exception dates, detached occurrences and splits) queried over random
/// windows and viewer zones give exactly what expanding every stored event on its own gives.
@Suite("Range queries: oracle")
struct RangeOracleTests {
  static let zones = ["UTC", "Europe/Berlin", "America/New_York", "Asia/Tokyo", "Australia/Lord_Howe", "Asia/Kolkata"]
  static let rules = [
    "FREQ=DAILY", "FREQ=DAILY;INTERVAL=3;COUNT=40", "FREQ=WEEKLY;BYDAY=MO,WE,FR", "FREQ=WEEKLY;INTERVAL=2;BYDAY=TU",
    "FREQ=MONTHLY;BYDAY=MO,TU,WE,TH,FR;BYSETPOS=-1", "FREQ=MONTHLY;BYMONTHDAY=31",
    "FREQ=YEARLY;BYMONTH=2;BYMONTHDAY=29",
    "FREQ=WEEKLY;COUNT=10", "FREQ=DAILY;UNTIL=20270101T000000Z",
  ]

  /// A key that identifies one answer.
  struct Answer: Hashable, Comparable, CustomStringConvertible {
    let id: ObjectID
    let occurrence: LocalDateTime
    let start: Int64
    let end: Int64

    static func < (a: Answer, b: Answer) -> Bool {
      (a.start, a.id, a.occurrence, a.end) < (b.start, b.id, b.occurrence, b.end)
    }
    var description: String { "\(id.description.prefix(8)) \(occurrence) [\(start), \(end))" }
  }

  @Test(arguments: [1, 2, 3] as [UInt64])
  func indexAnswersEqualBruteForce(seed: UInt64) throws {
    try withStore { store, _ in
      var random = SeededGenerator(seed: seed)
      let fixture = try EventFixture(store)
      let other = try fixture.events.save(EventCalendar(title: "Other"))
      // Five calendars: a query of all of them, or of four, merges more than two runs.
      let more = try ["Third", "Fourth", "Fifth"].map { try fixture.events.save(EventCalendar(title: $0)).id }
      let calendars = [fixture.calendar.id, other.id] + more
      for _ in 0..<400 { try Self.addRandomEvent(fixture, calendars, &random) }
      let stored = try calendars.flatMap { try fixture.events.events(inCalendar: $0) }
      var compared = 0
      for _ in 0..<150 {
        let zone = try ZoneRules.named(random.pick(Self.zones))
        let year = random.chance(0.1) ? random.int(2040...2070) : random.int(2023...2031)
        let from = utc(year, 1, 1) + Int64(random.int(0...364 * 86_400))
        let to = from + Int64(random.pick([1, 3_600, 86_400, 7 * 86_400, 31 * 86_400, 90 * 86_400]))
        let scope = random.pick([[], [], [fixture.calendar.id], [other.id], [other.id] + more])
        let predicate = EventPredicate(start: from, end: to, calendars: scope, viewerZone: zone)
        let indexed = try fixture.events.instances(matching: predicate).map {
          Answer(id: $0.id, occurrence: $0.occurrenceDate, start: $0.start, end: $0.end)
        }
        let expected = try Self.bruteForce(
          stored.filter { scope.isEmpty || scope.contains($0.calendarID!) }, predicate)
        #expect(
          indexed.sorted() == expected,
          "seed \(seed), window [\(from), \(to)) in \(zone): missing \(Set(expected).subtracting(indexed).sorted()), extra \(Set(indexed).subtracting(expected).sorted())"
        )
        #expect(indexed == indexed.sorted(by: { ($0.start, $0.id, $0.occurrence) < ($1.start, $1.id, $1.occurrence) }))
        compared += expected.count
      }
      #expect(compared > 500, "the windows found too little to compare: \(compared)")
    }
  }

  @Test func indexAnswersEqualSQLite() throws {
    try withStore { store, _ in
      var random = SeededGenerator(seed: 42)
      let fixture = try EventFixture(store)
      for _ in 0..<300 { try Self.addRandomEvent(fixture, [fixture.calendar.id], &random) }
      let stored = try fixture.events.events(inCalendar: fixture.calendar.id)
      // Every instance from 2022 to 2033 in UTC, pre-expanded as a SQLite peer would hold them.
      let everything = try Self.bruteForce(stored, EventPredicate(start: utc(2022, 1, 1), end: utc(2033, 1, 1)))
      var windows: [[Int64]] = []
      for _ in 0..<200 {
        let from = utc(random.int(2023...2031), 1, 1) + Int64(random.int(0...364 * 86_400))
        windows.append([from, from + Int64(random.pick([3_600, 86_400, 7 * 86_400, 31 * 86_400]))])
      }
      let sqlite = try SQLiteRangeOracle.run(
        instances: everything.map {
          [$0.id.description, String($0.occurrence.wallClockSeconds), String($0.start), String($0.end)]
        },
        windows: windows)
      var compared = 0
      for (window, expected) in zip(windows, sqlite) {
        let indexed = try fixture.events.instances(matching: EventPredicate(start: window[0], end: window[1]))
          .map { Answer(id: $0.id, occurrence: $0.occurrenceDate, start: $0.start, end: $0.end) }
        #expect(indexed == expected, "window \(window)")
        compared += expected.count
      }
      #expect(compared > 300, "the windows found too little to compare: \(compared)")
    }
  }

  /// Every answer for `predicate`, expanding each event on its own.
  static func bruteForce(_ events: [Event], _ predicate: EventPredicate) throws -> [Answer] {
    var answers: [Answer] = []
    func overlaps(_ start: Int64, _ end: Int64) -> Bool {
      start < predicate.end && (end > predicate.start || (end == start && start >= predicate.start))
    }
    func times(_ event: Event) throws -> (Int64, Int64) {
      let zone = event.timeZone.map { try? ZoneRules.named($0) } ?? nil
      let resolver = (event.isAllDay ? nil : zone) ?? predicate.viewerZone
      let start = resolver.resolve(event.start!)
      return (start, max(start, resolver.resolve(event.end!)))
    }
    for event in events {
      guard event.isRecurring else {
        let (start, end) = try times(event)
        if overlaps(start, end) {
          answers.append(Answer(id: event.id, occurrence: event.start!, start: start, end: end))
        }
        continue
      }
      let set = try event.recurrenceSet()
      for occurrence in set.occurrences(from: predicate.start, to: predicate.end, viewerZone: predicate.viewerZone)
      where event.detachedOccurrences[occurrence.local] == nil {
        answers.append(Answer(id: event.id, occurrence: occurrence.local, start: occurrence.start, end: occurrence.end))
      }
      for (local, detached) in event.detachedOccurrences {
        let (start, end) = try times(detached)
        if overlaps(start, end) { answers.append(Answer(id: event.id, occurrence: local, start: start, end: end)) }
      }
    }
    return answers.sorted()
  }

  /// Saves one random event, and sometimes changes some of its occurrences.
  static func addRandomEvent(_ fixture: EventFixture, _ calendars: [ObjectID], _ random: inout SeededGenerator) throws {
    let day = local(random.int(2024...2029), random.int(1...12), random.int(1...28))
    let allDay = random.chance(0.15)
    let zone: String? = allDay || random.chance(0.2) ? nil : random.pick(zones)
    let start = LocalDateTime(
      wallClockSeconds: day.wallClockSeconds + (allDay ? 0 : Int64(random.int(0...95)) * 900))!
    let duration: Int64 =
      allDay
      ? Int64(random.int(1...3)) * 86_400
      : random.chance(0.05)
        ? 0 : random.chance(0.05) ? Int64(random.int(8...40)) * 86_400 : Int64(random.int(1...16)) * 900
    var event = Event(
      calendarID: random.pick(calendars), title: "e", start: start,
      end: LocalDateTime(wallClockSeconds: start.wallClockSeconds + duration), timeZone: zone, isAllDay: allDay)
    if random.chance(0.3) {
      var text = random.pick(rules)
      if allDay && text.contains("UNTIL") { text = "FREQ=DAILY;UNTIL=20270101" }
      event.recurrenceRules = [try rule(text)]
    }
    guard (try? fixture.events.save(event, span: .thisEvent)) != nil else { return }
    guard event.isRecurring else { return }
    let set = try event.recurrenceSet()
    let some = Array(set.occurrences(from: .min, to: .max).prefix(30).map(\.local))
    for _ in 0..<random.int(0...3) where some.count > 2 {
      let local = random.pick(Array(some.dropFirst()))
      guard let occurrence = try fixture.events.event(withID: event.id, occurrence: local) else { continue }
      switch random.int(0...3) {
      case 0:
        try fixture.events.remove(occurrence, span: .thisEvent)
      case 1:
        var moved = occurrence
        let shift = Int64(random.int(-48...48)) * 3_600
        moved.start = LocalDateTime(wallClockSeconds: occurrence.start!.wallClockSeconds + shift)
        moved.end = LocalDateTime(wallClockSeconds: occurrence.end!.wallClockSeconds + shift)
        if allDay {
          moved.start = occurrence.start
          moved.end = occurrence.end
        }
        moved.title = "moved"
        try fixture.events.save(moved, span: .thisEvent)
      case 2:
        var later = occurrence
        later.title = "split"
        try fixture.events.save(later, span: .futureEvents)
        return
      default:
        try fixture.events.remove(occurrence, span: .futureEvents)
        return
      }
    }
  }
}
