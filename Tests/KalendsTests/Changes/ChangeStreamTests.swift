import Foundation
import Kalends
import Testing

@Suite("Change notices")
struct ChangeStreamTests {
  @Test func aSaveInThisProcessIsNoticedWithWhatChanged() async throws {
    try await withStore { store, _ in
      let fixture = try EventFixture(store)
      let start = try store.head().position.next
      let collector = NoticeCollector(store.changes(from: start))
      let saved = try fixture.events.save(try fixture.meeting(), span: .thisEvent)
      #expect(await collector.wait(through: saved.version))
      let notice = try #require(collector.notices.first)
      #expect(notice.changes == [.event(saved.id): .added])
      #expect(notice.positions == start...saved.version)
      #expect(notice.origin == .thisProcess)
      #expect(!notice.refetchAll)
      #expect(notice.head >= saved.version)

      var changed = saved
      changed.title = "Moved"
      let second = try fixture.events.save(changed, span: .thisEvent)
      try fixture.events.remove(second, span: .thisEvent)
      let removedAt = try store.head().position
      #expect(await collector.wait(through: removedAt))
      #expect(collector.merged[.event(saved.id)] == .removed)
      #expect(collector.notices.dropFirst().first?.positions.lowerBound == saved.version.next)
    }
  }

  @Test func catchUpThenLiveHasNoGapAndNoDuplicate() async throws {
    try await withStore { store, _ in
      let fixture = try EventFixture(store)
      var created: [ObjectID] = []
      for index in 0..<300 {
        created.append(try fixture.events.save(try fixture.meeting("before \(index)"), span: .thisEvent).id)
      }
      let startHead = try store.head().position
      let collector = NoticeCollector(
        store.changes(
          from: 1, options: ChangeStreamOptions(catchUpBatch: 64, maxPendingRecords: 100_000, maxObjects: 100_000)))
      let writer = Task {
        var ids: [ObjectID] = []
        for index in 0..<1_500 {
          ids.append(try fixture.events.save(try fixture.meeting("during \(index)"), span: .thisEvent).id)
        }
        return ids
      }
      created += try await writer.value
      let head = try store.head().position
      #expect(await collector.wait(through: head))
      let notices = collector.notices
      var next = LogPosition(1)
      for notice in notices {
        #expect(notice.positions.lowerBound == next, "a gap or an overlap before \(notice.positions)")
        next = notice.positions.upperBound.next
        #expect(notice.isCatchUp == (notice.positions.upperBound <= startHead))
        #expect(!notice.refetchAll)
      }
      #expect(next == head.next)
      let heard = notices.flatMap { notice in
        notice.changes.compactMap { object, kind in
          if case .event(let id) = object, kind == .added { return id } else { return nil }
        }
      }
      #expect(heard.count == created.count, "each event heard once")
      #expect(Set(heard).symmetricDifference(created).isEmpty)
      #expect(notices.filter(\.isCatchUp).allSatisfy { $0.recordCount <= 64 })
    }
  }

  @Test func aSlowSubscriberGetsCoalescedNotices() async throws {
    try await withStore { store, _ in
      let fixture = try EventFixture(store)
      let collector = NoticeCollector(store.changes(from: try store.head().position.next), delay: .milliseconds(100))
      var ids: Set<ObjectID> = []
      for index in 0..<400 { ids.insert(try fixture.events.save(try fixture.meeting("\(index)"), span: .thisEvent).id) }
      #expect(await collector.wait(through: try store.head().position))
      #expect(collector.error == nil)
      #expect(collector.notices.count < 40, "400 saves came in \(collector.notices.count) notices")
      #expect(Set(collector.merged.keys) == Set(ids.map(ChangedObject.event)))
    }
  }

  @Test func pastItsBoundsANoticeSaysRefetchEverything() async throws {
    try await withStore { store, _ in
      let fixture = try PrivacyFixture(store)
      let app = try fixture.owner.session(for: PrivacyFixture.planner)
      _ = try app.requestFullAccess(to: .calendars, prompter: ScriptedPrompter(.allow))
      let bounds = ChangeStreamOptions(maxPendingRecords: 50, maxObjects: 10)
      // A session reads the log itself, 50 records at a time, and is told to refetch when more
      // than 10 objects it sees changed; never because many records are pending, which would
      // tell it how much the person wrote where it may not look.
      var stream = app.changes(options: bounds).makeAsyncIterator()
      let first = try store.head().position.next
      for index in 0..<60 { try fixture.owner.save(fixture.newEvent("\(index)"), span: .thisEvent) }
      let written = try store.head().position
      let pending = try #require(try await stream.next())
      #expect(pending.refetchAll && pending.changes.isEmpty)
      #expect(pending.positions == first...LogPosition(first.rawValue + 49))
      let rest = try #require(try await stream.next())
      #expect(!rest.refetchAll && rest.changes.count == 10)
      // Up to the last event (what the app heard is recorded after it, as its read).
      #expect(rest.positions.upperBound == written)

      // The owner's live subscription reads what the watcher decoded: 20 objects in one commit
      // exceed 10 in a notice however the records were announced.
      var owner = store.changes(options: bounds).makeAsyncIterator()
      let batch = (0..<20).map { index in fixture.newEvent("batch \(index)") }
      let saved = try fixture.owner.save(batch, span: .thisEvent)
      let many = try #require(try await owner.next())
      #expect(many.refetchAll, "20 objects in one notice exceed 10")
      #expect(many.positions.upperBound >= saved[19].version)

      let one = try fixture.owner.save(fixture.newEvent("one"), span: .thisEvent)
      let listed = try #require(try await owner.next())
      #expect(listed.changes == [.event(one.id): .added])
      #expect(listed.positions.lowerBound == many.positions.upperBound.next)
    }
  }

  /// The review's finding: a session told "refetch everything" once more than the bound of
  /// records were pending learned that the person wrote much in calendars hidden from it.
  @Test func muchWrittenWhereAnAppMayNotLookTellsItNothing() async throws {
    try await withStore { store, _ in
      let fixture = try PrivacyFixture(store)
      try fixture.owner.register(
        Client(id: "com.example.tasks", name: "Tasks", usageDescriptions: [.remindersFull: "Your to-dos."]))
      try fixture.owner.privacySettings().setAccess(.fullAccess, for: "com.example.tasks", service: .reminders)
      let tasks = try fixture.owner.session(for: "com.example.tasks")
      var stream = tasks.changes(options: ChangeStreamOptions(maxPendingRecords: 50, maxObjects: 10))
        .makeAsyncIterator()
      for index in 0..<120 { try fixture.owner.save(fixture.newEvent("\(index)"), span: .thisEvent) }
      let list = try fixture.owner.save(EventCalendar(title: "Errands", allowedEntityTypes: .reminders))
      let heard = try #require(try await stream.next())
      #expect(!heard.refetchAll)
      #expect(heard.changes == [.calendar(list.id): .added])
    }
  }

  @Test func aStartPastTheHeadIsRefused() async throws {
    try await withStore { store, _ in
      let head = try store.head().position
      var stream = store.changes(from: LogPosition(head.rawValue + 2)).makeAsyncIterator()
      await #expect(throws: StoreError.recordNotFound(LogPosition(head.rawValue + 2), head: head)) {
        try await stream.next()
      }
    }
  }

  @Test func aSessionHearsOnlyWhatItsAccessLetsItSee() async throws {
    try await withStore { store, _ in
      let fixture = try PrivacyFixture(store)
      let writer = try fixture.owner.session(for: PrivacyFixture.planner)
      _ = try writer.requestWriteOnlyAccess(prompter: ScriptedPrompter(.allow))
      let added = try writer.save(fixture.newEvent(), span: .thisEvent)
      try fixture.owner.register(Client(id: "com.example.other", name: "Other", usageDescriptions: [:]))
      // Asking again records the request (the stored answer): the session's own last change.
      _ = try writer.requestWriteOnlyAccess(prompter: ScriptedPrompter(.allow))
      let head = try store.head().position
      let collector = NoticeCollector(writer.changes(from: 1))
      #expect(await collector.wait(through: head))
      #expect(
        collector.merged == [.client(PrivacyFixture.planner): .added],
        "write-only: its own client only; no calendar, event or other client")
      #expect(collector.notices.first?.positions.lowerBound == 1)

      let owner = NoticeCollector(fixture.owner.changes(from: 1))
      #expect(await owner.wait(through: head))
      #expect(owner.merged[.event(added.id)] == .added)
      #expect(owner.merged[.calendar(fixture.calendar.id)] == .added)
      #expect(owner.merged[.client("com.example.other")] == .added)
    }
  }

  /// The review's finding: an app with reminders access only heard of every calendar added,
  /// changed or removed, events-only ones among them. It hears of its reminder lists, and an app
  /// given chosen calendars hears of those and of no other events calendar.
  @Test func anAppHearsOfTheCalendarsThatHoldWhatItMaySee() async throws {
    try await withStore { store, _ in
      let fixture = try PrivacyFixture(store)
      try fixture.owner.register(
        Client(id: "com.example.tasks", name: "Tasks", usageDescriptions: [.remindersFull: "Your to-dos."]))
      try fixture.owner.privacySettings().setAccess(.fullAccess, for: "com.example.tasks", service: .reminders)
      let tasks = try fixture.owner.session(for: "com.example.tasks")
      let start = try store.head().position.next
      var health = try fixture.owner.save(EventCalendar(title: "Health"))
      health.title = "Clinic"
      health = try fixture.owner.save(health)
      try fixture.owner.remove(health)
      // Last, so that the app's notices reach the head.
      let list = try fixture.owner.save(EventCalendar(title: "Errands", allowedEntityTypes: .reminders))
      let head = try store.head().position
      let heard = NoticeCollector(tasks.changes(from: start))
      #expect(await heard.wait(through: head))
      #expect(heard.merged[.calendar(list.id)] == .added)
      #expect(heard.merged[.calendar(health.id)] == nil, "\(heard.merged)")

      let owner = NoticeCollector(fixture.owner.changes(from: start))
      #expect(await owner.wait(through: head))
      #expect(owner.merged[.calendar(health.id)] != nil)
    }
  }

  @Test func revokingAccessEndsTheSessionsSubscriptions() async throws {
    try await withStore { store, _ in
      let fixture = try PrivacyFixture(store)
      let app = try fixture.owner.session(for: PrivacyFixture.planner)
      _ = try app.requestFullAccess(to: .calendars, prompter: ScriptedPrompter(.allow))
      let collector = NoticeCollector(app.changes(from: try store.head().position.next))
      var moved = fixture.existing
      moved.title = "Moved"
      let saved = try fixture.owner.save(moved, span: .thisEvent)
      #expect(
        await collector.wait(through: saved.version),
        "ended: \(collector.ended), error: \(String(describing: collector.error)), notices: \(collector.notices)")
      #expect(collector.merged == [.event(saved.id): .modified])
      try fixture.owner.privacySettings().setAccess(.denied, for: PrivacyFixture.planner, service: .calendars)
      let revokedAt = try store.head().position
      #expect(await collector.wait { _ in collector.ended })
      #expect(collector.error == .access(.sessionTerminated(client: PrivacyFixture.planner, at: revokedAt)))
    }
  }
}
