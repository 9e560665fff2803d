import Foundation
import KalendsTestSupport
import Testing

@testable import Kalends

/// Which alarms fire in a window: every occurrence's, not a cancelled one's; reminders' while
/// incomplete; floating and all-day items in the viewer's zone. The expected instants are
/// computed with Foundation's calendar, which shares no code with Kalends' zone rules.
@Suite("Alarms that fire")
struct AlarmTests {
  /// The UTC seconds of a wall-clock time in `zone`, by Foundation.
  static func instant(_ zone: String, _ year: Int, _ month: Int, _ day: Int, _ hour: Int = 0, _ minute: Int = 0)
    -> Int64
  {
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = TimeZone(identifier: zone)!
    let date = calendar.date(from: DateComponents(year: year, month: month, day: day, hour: hour, minute: minute))!
    return Int64(date.timeIntervalSince1970)
  }

  @Test func everyOccurrenceAndIncompleteReminderFiresOnceCancelledOnesNever() throws {
    try withStore { store, _ in
      let owner = EventStore(store: store)
      let work = try owner.save(EventCalendar(title: "Work"))
      let list = try owner.save(EventCalendar(title: "Errands", allowedEntityTypes: .reminders))
      // A daily series at 09:00 in Berlin, 10 minutes' notice, its second occurrence cancelled.
      var standup = Event(
        calendarID: work.id, title: "Standup", start: local(2026, 3, 28, 9), end: local(2026, 3, 28, 9, 15),
        timeZone: "Europe/Berlin")
      standup.recurrenceRules = [try rule("FREQ=DAILY;COUNT=3")]
      standup.alarms = [Alarm(relativeOffset: -600)]
      standup = try owner.save(standup, span: .thisEvent)
      var second = try #require(try owner.event(withID: standup.id, occurrence: local(2026, 3, 29, 9)))
      second.status = .canceled
      _ = try owner.save(second, span: .thisEvent)
      // Floating at noon with two alarms; all-day on March 30 an hour before its day begins.
      var lunch = Event(
        calendarID: work.id, title: "Lunch", start: local(2026, 3, 29, 12), end: local(2026, 3, 29, 13),
        timeZone: nil)
      lunch.alarms = [Alarm(relativeOffset: -300), Alarm(relativeOffset: 0)]
      _ = try owner.save(lunch, span: .thisEvent)
      var trip = Event(
        calendarID: work.id, title: "Trip", start: local(2026, 3, 30), end: local(2026, 3, 31), timeZone: nil)
      trip.isAllDay = true
      trip.alarms = [Alarm(relativeOffset: -3_600)]
      _ = try owner.save(trip, span: .thisEvent)
      var silent = Event(
        calendarID: work.id, title: "No alarm", start: local(2026, 3, 29, 10), end: local(2026, 3, 29, 11),
        timeZone: "UTC")
      silent = try owner.save(silent, span: .thisEvent)
      // A reminder due at 17:00 in Tokyo, alarm at the time; a completed one never.
      var rent = Reminder(calendarID: list.id, title: "Pay rent")
      rent.dueDate = local(2026, 3, 29, 17)
      rent.timeZone = "Asia/Tokyo"
      rent.alarms = [Alarm(relativeOffset: 0)]
      _ = try owner.save(rent)
      var done = rent
      done.id = .random()
      done.externalID = ObjectID.random().description
      done.title = "Done already"
      done.isCompleted = true
      _ = try owner.save(done)

      let viewer = "America/New_York"
      let zone = try ZoneRules.named(viewer)
      let from = Self.instant("UTC", 2026, 3, 27)
      let to = Self.instant("UTC", 2026, 4, 1)
      let alarms = try owner.alarms(firingAfter: from, through: to, viewerZone: zone)
      let expected: [(String, Int64)] = [
        ("Standup", Self.instant("Europe/Berlin", 2026, 3, 28, 8, 50)),
        ("Pay rent", Self.instant("Asia/Tokyo", 2026, 3, 29, 17)),
        ("Lunch", Self.instant(viewer, 2026, 3, 29, 11, 55)),
        ("Lunch", Self.instant(viewer, 2026, 3, 29, 12)),
        ("Trip", Self.instant(viewer, 2026, 3, 29, 23)),
        ("Standup", Self.instant("Europe/Berlin", 2026, 3, 30, 8, 50)),
      ].sorted { $0.1 < $1.1 }
      #expect(alarms.map(\.title) == expected.map(\.0))
      #expect(alarms.map(\.fireTime) == expected.map(\.1))
      #expect(alarms.first?.item == .event(standup.id, occurrence: local(2026, 3, 28, 9)))

      // The window is (after, through]: an alarm at its end fires in it, one at its start not.
      let first = try #require(alarms.first?.fireTime)
      #expect(try owner.alarms(firingAfter: first - 1, through: first, viewerZone: zone).map(\.title) == ["Standup"])
      #expect(try owner.alarms(firingAfter: first, through: first + 60, viewerZone: zone).isEmpty)
    }
  }

  @Test func anAppGetsTheAlarmsOfWhatItMayReadAndARefusedOneIsRecorded() throws {
    try withStore { store, _ in
      let fixture = try PrivacyFixture(store)
      var review = fixture.existing
      review.alarms = [Alarm(relativeOffset: -900)]
      review = try fixture.owner.save(review, span: .thisEvent)
      let start = try #require(review.start)
      let fire = try ZoneRules.named(review.timeZone ?? "UTC").resolve(start) - 900
      let app = try fixture.owner.session(for: PrivacyFixture.planner)
      let head = try store.head().position
      #expect(throws: StoreError.self) { try app.alarms(firingAfter: fire - 60, through: fire + 60) }
      #expect(try countedRefusals(store, client: PrivacyFixture.planner, service: .calendars, since: head) == 1)
      try fixture.owner.privacySettings().setAccess(.fullAccess, for: PrivacyFixture.planner, service: .calendars)
      let allowed = try fixture.owner.session(for: PrivacyFixture.planner)
      #expect(try allowed.alarms(firingAfter: fire - 60, through: fire + 60).map(\.title) == [review.title])
    }
  }

  /// A plan is made again only when a record may change it: saves of items without alarms, the
  /// bulk of a busy store's writes, do not call for one.
  @Test func onlyRecordsThatMayChangeAlarmsCallForANewPlan() throws {
    try withStore { store, _ in
      let owner = EventStore(store: store)
      let work = try owner.save(EventCalendar(title: "Work"))
      func event(_ title: String, alarms: [Alarm] = []) -> Event {
        var event = Event(
          calendarID: work.id, title: title, start: local(2026, 6, 1, 9), end: local(2026, 6, 1, 10), timeZone: "UTC")
        event.alarms = alarms
        return event
      }
      var planned = try owner.save(event("Planned", alarms: [Alarm(relativeOffset: -60)]), span: .thisEvent)
      var mark = try store.head().position
      #expect(try owner.alarmsMayHaveChanged(after: mark, planned: [planned.id]) == (mark, false))
      var plain = try owner.save(event("Plain"), span: .thisEvent)
      plain.title = "Plain, renamed"
      plain = try owner.save(plain, span: .thisEvent)
      var result = try owner.alarmsMayHaveChanged(after: mark, planned: [planned.id, work.id])
      #expect(result == (try store.head().position, false), "items without alarms change no plan")
      mark = result.head
      // An occurrence of a series given its own alarm.
      var series = event("Series")
      series.recurrenceRules = [try rule("FREQ=DAILY;COUNT=3")]
      series = try owner.save(series, span: .thisEvent)
      mark = try store.head().position
      var second = try #require(try owner.event(withID: series.id, occurrence: local(2026, 6, 2, 9)))
      second.alarms = [Alarm(relativeOffset: 0)]
      _ = try owner.save(second, span: .thisEvent)
      result = try owner.alarmsMayHaveChanged(after: mark, planned: [planned.id])
      #expect(result.changed, "a changed occurrence's alarm")
      mark = result.head
      planned.alarms = []
      planned = try owner.save(planned, span: .thisEvent)
      #expect(try owner.alarmsMayHaveChanged(after: mark, planned: [planned.id]).changed, "a planned item's alarm gone")
      mark = try store.head().position
      try owner.remove(plain, span: .thisEvent)
      result = try owner.alarmsMayHaveChanged(after: mark, planned: [work.id])
      #expect(!result.changed, "an item without alarms removed")
      try owner.remove(try #require(try owner.calendar(withID: work.id)))
      #expect(try owner.alarmsMayHaveChanged(after: result.head, planned: [work.id]).changed, "a planned calendar gone")
      #expect(try owner.alarmsMayHaveChanged(after: LogPosition(1), planned: [], limit: 2).changed, "too many to read")
    }
  }
}
