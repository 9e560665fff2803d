import Kalends
import Testing

@Suite("Reminders")
struct ReminderTests {
  @Test func aReminderIsOneRecordAndCompletingStampsTheDate() throws {
    try withStore { store, _ in
      let events = EventStore(store: store)
      let list = try events.save(EventCalendar(title: "Todo", allowedEntityTypes: .reminders))
      var reminder = Reminder(calendarID: list.id, title: "Call the plumber", dueDate: local(2026, 4, 1, 17))
      reminder.priority = 1
      reminder = try events.save(reminder)
      let created = try #require(try store.lastRecords(1).first)
      #expect(created.kind == .reminderSaved && created.position == reminder.version)
      #expect(try events.reminder(withID: reminder.id) == reminder)

      reminder.isCompleted = true
      let completed = try events.save(reminder)
      #expect(completed.completionDate == completed.lastModifiedDate)
      #expect(completed.creationDate == reminder.creationDate)
      var reopened = completed
      reopened.isCompleted = false
      #expect(try events.save(reopened).completionDate == nil)
    }
  }

  @Test func everyReminderValidationErrorIsTypedAndWritesNothing() throws {
    try withStore { store, _ in
      let events = EventStore(store: store)
      let list = try events.save(EventCalendar(title: "Todo", allowedEntityTypes: .reminders))
      let work = try events.save(EventCalendar(title: "Work"))
      let head = try store.head()
      func expectRefused(_ error: CalendarError, _ change: (inout Reminder) throws -> Void) throws {
        var reminder = Reminder(calendarID: list.id, title: "Task")
        try change(&reminder)
        #expect(throws: StoreError.calendar(error)) { try events.save(reminder) }
        #expect(try store.head() == head, "a refused save writes nothing (\(error))")
      }
      try expectRefused(.noCalendar) { $0.calendarID = nil }
      try expectRefused(.priorityIsInvalid(10)) { $0.priority = 10 }
      try expectRefused(.priorityIsInvalid(-1)) { $0.priority = -1 }
      try expectRefused(.recurringReminderRequiresDueDate) { $0.recurrenceRules = [try rule("FREQ=WEEKLY")] }
      try expectRefused(.calendarDoesNotAllowReminders(work.id)) { $0.calendarID = work.id }
      try expectRefused(.invalidTimeZone("Nowhere/City")) {
        $0.dueDate = local(2026, 4, 1)
        $0.timeZone = "Nowhere/City"
      }
    }
  }

  @Test func remindersAreListedIncompleteFirstThenByDueDate() throws {
    try withStore { store, _ in
      let events = EventStore(store: store)
      let list = try events.save(EventCalendar(title: "Todo", allowedEntityTypes: .reminders))
      var done = Reminder(calendarID: list.id, title: "Done", dueDate: local(2026, 1, 1))
      done.isCompleted = true
      try events.save(done)
      try events.save(Reminder(calendarID: list.id, title: "Undated"))
      try events.save(Reminder(calendarID: list.id, title: "Later", dueDate: local(2026, 6, 1)))
      try events.save(Reminder(calendarID: list.id, title: "Sooner", dueDate: local(2026, 2, 1)))
      #expect(try events.reminders().map(\.title) == ["Sooner", "Later", "Undated", "Done"])
    }
  }

  @Test func aRemovedReminderIsGoneAndAStaleOneIsAConflict() throws {
    try withStore { store, _ in
      let events = EventStore(store: store)
      let list = try events.save(EventCalendar(title: "Todo", allowedEntityTypes: .reminders))
      let original = try events.save(Reminder(calendarID: list.id, title: "Task"))
      var renamed = original
      renamed.title = "Renamed"
      let current = try events.save(renamed)
      #expect(
        throws: StoreError.calendar(
          .changedSinceFetched(original.id, fetched: original.version, current: current.version))
      ) { try events.remove(original) }
      try events.remove(current)
      let removed = try #require(try store.lastRecords(1).first)
      #expect(removed.kind == .reminderRemoved)
      #expect(try events.reminder(withID: original.id) == nil)
      #expect(try events.reminders().isEmpty)
      #expect(throws: StoreError.calendar(.itemRemoved(original.id, at: removed.position))) {
        try events.save(current, overwrite: true)
      }
    }
  }

  @Test func remindersAreFoundByDueAndCompletionWindows() throws {
    try withStore { store, _ in
      let events = EventStore(store: store)
      let list = try events.save(EventCalendar(title: "Todo", allowedEntityTypes: .reminders))
      try events.save(Reminder(calendarID: list.id, title: "floating", dueDate: local(2026, 5, 1, 9)))
      try events.save(
        Reminder(calendarID: list.id, title: "tokyo", dueDate: local(2026, 5, 1, 9), timeZone: "Asia/Tokyo"))
      try events.save(Reminder(calendarID: list.id, title: "undated"))
      var done = Reminder(calendarID: list.id, title: "done", dueDate: local(2026, 5, 1, 9))
      done.isCompleted = true
      done = try events.save(done)
      // 09:00 in Tokyo is 00:00 UTC; floating 09:00 is placed in the viewer's zone.
      let early = try events.incompleteReminders(dueFrom: utc(2026, 5, 1), to: utc(2026, 5, 1, 1))
      #expect(early.map(\.title) == ["tokyo"])
      let utcMorning = try events.incompleteReminders(dueFrom: utc(2026, 5, 1, 9), to: utc(2026, 5, 1, 10))
      #expect(utcMorning.map(\.title) == ["floating"])
      #expect(try events.incompleteReminders().map(\.title) == ["tokyo", "floating", "undated"])
      let completedAt = done.completionDate!.rawValue / 1_000_000
      #expect(try events.completedReminders(from: completedAt, to: completedAt + 1).map(\.title) == ["done"])
      #expect(try events.completedReminders(to: completedAt).isEmpty)
    }
  }
}
