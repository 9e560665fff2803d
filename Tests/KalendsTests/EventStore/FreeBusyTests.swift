import Kalends
import Testing

/// Busy time (``EventStore/busyPeriods(inCalendars:from:to:)``), as RFC 4791 §7.10 counts it.
@Suite("Free/busy")
struct FreeBusyTests {
  /// Seconds of 2026-05-04 (a Monday) at `hour` UTC.
  static func at(_ hour: Int, day: Int = 4) -> Int64 { local(2026, 5, day, hour).wallClockSeconds }

  static func event(_ title: String, _ start: Int, _ end: Int, in calendar: EventCalendar) -> Event {
    Event(
      calendarID: calendar.id, title: title, start: local(2026, 5, 4, start), end: local(2026, 5, 4, end),
      timeZone: "UTC")
  }

  @Test func busyTimeIsMergedByKindClippedAndLeavesOutFreeAndCancelledEvents() throws {
    try withStore { store, _ in
      let owner = EventStore(store: store)
      let work = try owner.save(EventCalendar(title: "Work"))
      let home = try owner.save(EventCalendar(title: "Home"))
      _ = try owner.save(Self.event("a", 9, 11, in: work), span: .thisEvent)
      _ = try owner.save(Self.event("b", 10, 12, in: work), span: .thisEvent)
      _ = try owner.save(Self.event("adjoining", 12, 13, in: work), span: .thisEvent)
      var free = Self.event("free", 14, 15, in: work)
      free.availability = .free
      _ = try owner.save(free, span: .thisEvent)
      var cancelled = Self.event("cancelled", 15, 16, in: work)
      cancelled.status = .canceled
      _ = try owner.save(cancelled, span: .thisEvent)
      var tentative = Self.event("tentative", 16, 17, in: work)
      tentative.status = .tentative
      _ = try owner.save(tentative, span: .thisEvent)
      var daily = Self.event("daily", 7, 8, in: work)
      daily.recurrenceRules = [try rule("FREQ=DAILY;COUNT=3")]
      let series = try owner.save(daily, span: .thisEvent)
      // One occurrence cancelled: not busy then.
      var second = try #require(
        try owner.events(
          matching: EventPredicate(
            start: Self.at(0, day: 5), end: Self.at(23, day: 5), calendars: [work.id], viewerZone: .utc)
        ).first { $0.id == series.id })
      second.status = .canceled
      _ = try owner.save(second, span: .thisEvent)
      _ = try owner.save(Self.event("elsewhere", 18, 19, in: home), span: .thisEvent)

      let periods = try owner.busyPeriods(inCalendars: [work.id], from: Self.at(0), to: Self.at(0, day: 7))
      #expect(
        periods == [
          BusyPeriod(start: Self.at(7), end: Self.at(8), kind: .busy),
          BusyPeriod(start: Self.at(9), end: Self.at(13), kind: .busy),
          BusyPeriod(start: Self.at(16), end: Self.at(17), kind: .tentative),
          BusyPeriod(start: Self.at(7, day: 6), end: Self.at(8, day: 6), kind: .busy),
        ])
      // Clipped to the window.
      #expect(
        try owner.busyPeriods(inCalendars: [work.id], from: Self.at(10), to: Self.at(12))
          == [BusyPeriod(start: Self.at(10), end: Self.at(12), kind: .busy)])
      // Every calendar when none is named.
      #expect(try owner.busyPeriods(from: Self.at(18), to: Self.at(19)).map(\.kind) == [.busy])
    }
  }

  @Test func aWriteOnlySessionSeesNoBusyTime() throws {
    try withStore { store, _ in
      let fixture = try PrivacyFixture(store)
      try fixture.owner.privacySettings().setAccess(.writeOnly, for: PrivacyFixture.planner, service: .calendars)
      let app = try fixture.owner.session(for: PrivacyFixture.planner)
      let window = (start: local(2026, 5, 1).wallClockSeconds, end: local(2026, 5, 8).wallClockSeconds)
      #expect(try fixture.owner.busyPeriods(from: window.start, to: window.end).count == 1)
      #expect(try app.busyPeriods(from: window.start, to: window.end).isEmpty)
    }
  }
}
