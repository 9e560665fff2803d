public import Kalends

/// A deterministic synthetic calendar for benchmarks: the same seed and size always give the same
/// events (identifiers included), so runs on different machines and peers load the same data.
///
/// The shape (issue 4): `events` events over the ten years 2020–2029 in 20 calendars; 10 % are
/// recurring (daily with `COUNT`, weekly with `BYDAY`, monthly with `BYSETPOS=-1`; one in twenty of
/// them without an end); durations from 15 minutes to 3 days, mostly under two hours, one in a
/// thousand lasting 2–6 weeks; 3 % all-day and 2 % floating; zones from a handful of IANA names.
public struct SyntheticCalendar: Sendable {
  /// The number of calendars.
  public static let calendarCount = 20
  /// The first day of the data.
  public static let firstDay = LocalDateTime(year: 2020, month: 1, day: 1)!
  /// How many days the data spans.
  public static let dayCount = 3_653

  /// The seed.
  public let seed: UInt64
  /// How many events (a recurring series counts once).
  public let events: Int

  /// A generator of `events` events from `seed`.
  public init(seed: UInt64 = 1, events: Int = 1_000_000) {
    self.seed = seed
    self.events = events
  }

  /// The calendars, with identifiers derived from the seed.
  public func calendars() -> [EventCalendar] {
    var random = SeededGenerator(seed: seed)
    return (1...Self.calendarCount).map { index in
      var calendar = EventCalendar(title: "Calendar \(index)")
      calendar.id = random.objectID()
      return calendar
    }
  }

  /// Calls `body` with the events in batches of `batchSize`, in a fixed order.
  public func forEachBatch(of batchSize: Int = 1_000, _ body: ([Event]) throws -> Void) rethrows {
    let calendars = calendars().map(\.id)
    var random = SeededGenerator(seed: seed &+ 0x5EED)
    var batch: [Event] = []
    batch.reserveCapacity(batchSize)
    for index in 0..<events {
      batch.append(Self.event(index, calendars, &random))
      if batch.count == batchSize {
        try body(batch)
        batch.removeAll(keepingCapacity: true)
      }
    }
    if !batch.isEmpty { try body(batch) }
  }

  /// Creates the calendars and saves every event into `store` (a batch per transaction), calling
  /// `progress` with the events saved so far.
  public func load(into store: EventStore, progress: ((Int) -> Void)? = nil) throws(StoreError) {
    for calendar in calendars() { try store.save(calendar) }
    var saved = 0
    do {
      try forEachBatch { batch in
        try store.save(batch, span: .futureEvents)
        saved += batch.count
        progress?(saved)
      }
    } catch let error as StoreError {
      throw error
    } catch {
      throw .malformedPayload("synthetic calendar: \(error)")
    }
  }

  static let zones = ["Europe/Berlin", "America/New_York", "America/Los_Angeles", "Asia/Tokyo", "UTC", "Europe/London"]

  private static func event(_ index: Int, _ calendars: [ObjectID], _ random: inout SeededGenerator) -> Event {
    let calendar = calendars[random.below(calendars.count)]
    let day = Int64(random.below(dayCount))
    let kind = random.below(100)
    let allDay = kind < 3
    let floating = kind >= 3 && kind < 5
    let startSeconds = firstDay.wallClockSeconds + day * 86_400 + (allDay ? 0 : Int64(28 + random.below(48)) * 900)
    let duration: Int64
    if allDay {
      duration = Int64(1 + random.below(3)) * 86_400
    } else if random.below(1_000) == 0 {
      duration = Int64(14 + random.below(29)) * 86_400
    } else {
      let bucket = random.below(100)
      duration =
        bucket < 85
        ? Int64(1 + random.below(8)) * 900
        : bucket < 97 ? Int64(3 + random.below(22)) * 3_600 : Int64(1 + random.below(3)) * 86_400
    }
    var event = Event(
      calendarID: calendar, title: "Event \(index)", start: LocalDateTime(unchecked: startSeconds),
      end: LocalDateTime(unchecked: startSeconds + duration),
      timeZone: allDay || floating ? nil : zones[random.below(zones.count)],
      isAllDay: allDay)
    event.id = random.objectID()
    event.externalID = event.id.description
    if random.below(10) == 0 {
      let unbounded = random.below(20) == 0
      let text: String
      switch random.below(3) {
      case 0:
        text = unbounded ? "FREQ=DAILY" : "FREQ=DAILY;COUNT=\(5 + random.below(56))"
      case 1:
        text = unbounded ? "FREQ=WEEKLY;BYDAY=MO,WE,FR" : "FREQ=WEEKLY;BYDAY=TU,TH;COUNT=\(10 + random.below(91))"
      default:
        text = "FREQ=MONTHLY;BYDAY=MO,TU,WE,TH,FR;BYSETPOS=-1" + (unbounded ? "" : ";COUNT=\(6 + random.below(31))")
      }
      if let rule = try? RecurrenceRule(parsing: text) {
        event.recurrenceRules = [rule]
        // Keep the duration shorter than the rule's interval, as a save requires.
        if duration > 86_400 && text.hasPrefix("FREQ=DAILY") {
          event.end = LocalDateTime(unchecked: startSeconds + (allDay ? 86_400 : 3_600))
        }
        if duration > 7 * 86_400 { event.end = LocalDateTime(unchecked: startSeconds + 86_400) }
      }
    }
    return event
  }
}
