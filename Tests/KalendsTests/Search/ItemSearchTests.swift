import Foundation
import Kalends
import KalendsSynthetic
import Testing

/// Finding events and reminders by their words: the search index against reading every item, over
/// random saves, moves, changed occurrences, removals, a calendar's removal and erasures; the same
/// after a rebuild; and an app finds only what it may see.
@Suite("Search of events and reminders")
struct ItemSearchTests {
  static let vocabulary = [
    "Dentist", "dentistry", "Zürich", "zurich", "Ørsted", "Review", "budget", "BUDGETS", "Café", "lunch", "Sprint",
    "planning", "Yoga", "Straße", "Meeting", "Meet", "Übung", "Dent",
  ]

  static func text(_ random: inout SeededGenerator) -> String? {
    guard random.chance(0.8) else { return nil }
    return (0..<random.int(1...3)).map { _ in random.pick(vocabulary) }.joined(
      separator: random.pick([" ", ", ", "-"]))
  }

  /// What reading every live event says the search finds: every word of `query` begins a word of
  /// the event or of one of its changed occurrences (folded as the store folds them).
  static func expected(_ query: String, _ events: [Event]) -> Set<ObjectID> {
    let words = EventStore.searchWords(query)
    return Set(
      events.filter { event in
        let said = ([event] + event.detachedOccurrences.values)
          .flatMap { [$0.title, $0.location ?? "", $0.notes ?? ""] }.flatMap(EventStore.searchWords)
        return !words.isEmpty && words.allSatisfy { word in said.contains { $0.hasPrefix(word) } }
      }.map(\.id))
  }

  @Test(arguments: [1, 2] as [UInt64])
  func theIndexFindsWhatReadingEveryEventFinds(seed: UInt64) throws {
    try withStore { store, _ in
      var random = SeededGenerator(seed: seed)
      let owner = EventStore(store: store)
      var calendars = try ["Work", "Home", "Gym"].map { try owner.save(EventCalendar(title: $0)) }
      let list = try owner.save(EventCalendar(title: "Errands", allowedEntityTypes: .reminders))
      var saved: [Event] = []
      for index in 0..<120 {
        var event = Event(
          calendarID: random.pick(calendars).id, title: Self.text(&random) ?? "untitled",
          start: LocalDateTime(year: 2026, month: random.int(1...12), day: random.int(1...28), hour: 9)!,
          end: LocalDateTime(year: 2026, month: 12, day: 31, hour: 23)!, timeZone: "Europe/Berlin")
        event.end = LocalDateTime(wallClockSeconds: event.start!.wallClockSeconds + 3_600)
        event.location = Self.text(&random)
        event.notes = Self.text(&random)
        if random.chance(0.2) { event.recurrenceRules = [try RecurrenceRule(parsing: "FREQ=WEEKLY;COUNT=5")] }
        saved.append(try owner.save(event, span: .thisEvent))
        // Change some: a new title, a move, a changed occurrence, a removal.
        if index % 7 == 3, var changed = try owner.event(withID: saved.randomElement(using: &random)!.id) {
          changed.title = Self.text(&random) ?? "renamed"
          changed.calendarID = random.pick(calendars).id
          // The whole series (the series itself, with every later occurrence).
          _ = try owner.save(changed, span: .futureEvents)
        }
        if index % 11 == 5, let series = try owner.event(withID: saved.last!.id), series.isRecurring {
          var occurrence = try #require(
            try owner.event(
              withID: series.id,
              occurrence: LocalDateTime(wallClockSeconds: series.start!.wallClockSeconds + 7 * 86_400)!))
          occurrence.title = "Sprint Übung"
          _ = try owner.save(occurrence, span: .thisEvent)
        }
        if index % 13 == 6, let gone = try owner.event(withID: saved.randomElement(using: &random)!.id) {
          try owner.remove(gone, span: .futureEvents)
        }
      }
      _ = try owner.save(Reminder(calendarID: list.id, title: "Call the dentist"))
      // A calendar removed, an event and a calendar erased: their words leave the index.
      try owner.remove(calendars.removeLast())
      if let erased = try owner.events(inCalendar: calendars[0].id).first {
        try owner.privacySettings().erase(.event(erased.id))
      }
      let erasedCalendar = try owner.save(EventCalendar(title: "Secret"))
      _ = try owner.save(
        Event(
          calendarID: erasedCalendar.id, title: "Dentist Zürich", start: local(2026, 3, 1, 9),
          end: local(2026, 3, 1, 10),
          timeZone: "UTC"), span: .thisEvent)
      try owner.privacySettings().erase(.calendar(erasedCalendar.id))

      func check(_ label: String) throws {
        let live = try calendars.flatMap { try owner.events(inCalendar: $0.id) }
        var nonEmpty = 0
        for query in Self.vocabulary + ["dent zur", "meet", "stras", "orst", "cafe", "x", "b", "sprint ubung"] {
          let found = try owner.searchEvents(query)
          let expected = Self.expected(query, live)
          #expect(Set(found.map(\.id)) == expected, "\(label), seed \(seed), \(query)")
          #expect(found.count == Set(found.map(\.id)).count, "each series once")
          if !expected.isEmpty { nonEmpty += 1 }
        }
        #expect(nonEmpty > 10, "the queries found too little to compare")
        #expect(try owner.searchReminders("dent").map(\.title) == ["Call the dentist"])
        #expect(try owner.searchEvents("").isEmpty && owner.searchEvents("!!").isEmpty)
      }
      try check("as saved")
      #expect(try store.verifyProjections().isConsistent, "a rebuild from the log reaches the same index")
      try store.rebuildProjections()
      try check("after a rebuild")
    }
  }

  /// Several words: the candidates come from the range that ends first when all are read a batch
  /// of 256 keys at a time, in turns, whichever word is typed first or is longest.
  @Test func aRareWordBesideACommonOneFindsTheSameAsEitherAlone() throws {
    try withStore { store, _ in
      let owner = EventStore(store: store)
      let work = try owner.save(EventCalendar(title: "Work"))
      var titles: [ObjectID: String] = [:]
      for index in 0..<700 {
        let title = index == 650 ? "Weekly standup with the dentist" : "Weekly standup \(index)"
        let event = try owner.save(
          Event(
            calendarID: work.id, title: title, start: local(2026, 6, 1 + index % 28, 9),
            end: local(2026, 6, 1 + index % 28, 10), timeZone: "UTC"), span: .thisEvent)
        titles[event.id] = title
      }
      func expected(_ query: String) -> Set<ObjectID> {
        let words = EventStore.searchWords(query)
        return Set(
          titles.filter { _, title in
            words.allSatisfy { word in EventStore.searchWords(title).contains { $0.hasPrefix(word) } }
          }.keys)
      }
      for query in ["standup dentist", "dentist weekly", "weekly 6", "6 standup", "weekly", "w standup 1", "65 wee"] {
        #expect(Set(try owner.searchEvents(query).map(\.id)) == expected(query), "\(query)")
      }
      #expect(try owner.searchEvents("weekly").count == 700)
      #expect(try owner.searchEvents("standup dentist").map(\.title) == ["Weekly standup with the dentist"])
    }
  }

  @Test func anAppFindsOnlyWhatItMaySeeAndItsSearchesAreRecorded() throws {
    try withStore { store, _ in
      let fixture = try PrivacyFixture(store)
      let owner = fixture.owner
      let home = try owner.save(EventCalendar(title: "Home"))
      let work = try owner.save(
        Event(
          calendarID: fixture.calendar.id, title: "Dentist for the team", start: local(2026, 6, 1, 9),
          end: local(2026, 6, 1, 10), timeZone: "UTC"), span: .thisEvent)
      _ = try owner.save(
        Event(
          calendarID: home.id, title: "Dentist", start: local(2026, 6, 2, 9), end: local(2026, 6, 2, 10),
          timeZone: "UTC"), span: .thisEvent)
      #expect(try owner.searchEvents("dentist").count == 2)
      #expect(try owner.searchEvents("dentist", inCalendars: [home.id]).map(\.title) == ["Dentist"])

      #expect(
        try owner.privacySettings().setCalendarAccess(for: PrivacyFixture.planner, calendars: [fixture.calendar.id])
          == .fullAccess)
      let chosen = try owner.session(for: PrivacyFixture.planner)
      #expect(try chosen.searchEvents("dentist").map(\.id) == [work.id])
      #expect(try chosen.searchEvents("dentist", inCalendars: [home.id]).isEmpty)
      let uses = try PrivacyAudit(store: store).uses(client: PrivacyFixture.planner)
      #expect(uses.contains { $0.operation == "search events" && $0.objects == [fixture.calendar.id] }, "\(uses)")

      try owner.privacySettings().setAccess(.writeOnly, for: PrivacyFixture.planner, service: .calendars)
      let writer = try owner.session(for: PrivacyFixture.planner)
      var position = try store.head().position
      #expect(try writer.searchEvents("dentist").isEmpty, "write-only finds nothing")
      #expect(try countedRefusals(store, client: PrivacyFixture.planner, service: .calendars, since: position) == 1)

      try owner.privacySettings().setAccess(.denied, for: PrivacyFixture.planner, service: .calendars)
      let denied = try owner.session(for: PrivacyFixture.planner)
      position = try store.head().position
      #expect(throws: StoreError.self) { try denied.searchEvents("dentist") }
      #expect(try countedRefusals(store, client: PrivacyFixture.planner, service: .calendars, since: position) == 1)
    }
  }
}
