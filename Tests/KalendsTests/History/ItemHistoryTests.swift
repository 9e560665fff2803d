import Foundation
import KalendsTestSupport
import Testing

@testable import Kalends

/// An item's history read from the log, and earlier versions saved again as new facts: what was
/// removed comes back under its id, erased content stays erased, apps get neither.
@Suite("History and restore")
struct ItemHistoryTests {
  static func standup(in calendar: EventCalendar) throws -> Event {
    var event = Event(
      calendarID: calendar.id, title: "Standup", start: local(2026, 6, 1, 9), end: local(2026, 6, 1, 9, 15),
      timeZone: "Europe/Berlin")
    event.recurrenceRules = [try rule("FREQ=DAILY;COUNT=5")]
    return event
  }

  /// The positions of the records whose payload names `id` in field 1, read through the log's
  /// generic decoder: the oracle of what a history lists.
  static func positionsNaming(_ id: ObjectID, in store: Store) throws -> [LogPosition] {
    try store.records(from: 1, limit: .max).filter { record in
      try record.fields().contains { field in
        guard field.name == "id", case .uuid(let text) = field.value else { return false }
        return text.uppercased() == id.description.uppercased()
      }
    }.map(\.position)
  }

  @Test func aSeriesHistoryListsEverySaveByWhomAndARemovedSeriesComesBackWhole() throws {
    try withStore { store, _ in
      let fixture = try PrivacyFixture(store)
      let owner = fixture.owner
      try owner.privacySettings().setAccess(.fullAccess, for: PrivacyFixture.planner, service: .calendars)
      let app = try owner.session(for: PrivacyFixture.planner)
      let created = try owner.save(try Self.standup(in: fixture.calendar), span: .thisEvent)
      var renamed = created
      renamed.title = "Daily standup"
      let series = try app.save(renamed, span: .futureEvents)
      var third = try #require(try owner.event(withID: series.id, occurrence: local(2026, 6, 3, 9)))
      third.title = "Standup with guests"
      _ = try owner.save(third, span: .thisEvent)
      let full = try #require(try owner.event(withID: series.id))
      try owner.remove(full, span: .futureEvents)

      let history = try owner.history(of: .event(series.id))
      let naming = try Self.positionsNaming(series.id, in: store)
      #expect(history.map(\.position) == naming, "\(history.map(\.position)) \(naming)")
      #expect(history.map(\.action) == [.saved(.created), .saved(.modified), .saved(.occurrenceDetached), .removed])
      #expect(history.map(\.principal) == [.person, .client(PrivacyFixture.planner), .person, .person])
      #expect(history.map { $0.state?.title } == ["Standup", "Daily standup", "Daily standup", nil])
      #expect(history.allSatisfy { $0.content == .present })
      #expect(try owner.event(withID: series.id) == nil)

      // The version with the detached occurrence comes back whole, under its id, as a new fact.
      let head = try store.head().position
      let restored = try owner.restore(.event(series.id), version: history[2].position)
      guard case .event(let event) = restored else {
        Issue.record("not an event: \(restored)")
        return
      }
      #expect(event.id == series.id && event.version == head.next && event.detachedOccurrences.count == 1)
      #expect(try owner.event(withID: series.id)?.title == "Daily standup")
      let week = try owner.events(
        matching: EventPredicate(
          start: utc(2026, 6, 1), end: utc(2026, 6, 8), calendars: [fixture.calendar.id], viewerZone: .utc))
      #expect(
        week.map(\.title) == [
          "Daily standup", "Daily standup", "Standup with guests", "Daily standup", "Daily standup",
        ])
      let after = try owner.history(of: .event(series.id))
      #expect(after.last?.action == .saved(.created) && after.last?.restoredFrom == history[2].position)
      // Going back on a live series is a modification.
      let back = try owner.restore(.event(series.id), version: history[0].position)
      #expect(back.title == "Standup" && back.version == head.next.next)
      #expect(try owner.history(of: .event(series.id)).last?.action == .saved(.modified))
      #expect(try store.verifyProjections().isConsistent, "a replay gives the projections the restores left")
    }
  }

  @Test func whatCannotComeBackIsRefusedAndWritesNothing() throws {
    try withStore { store, _ in
      let fixture = try PrivacyFixture(store)
      let owner = fixture.owner
      let home = try owner.save(EventCalendar(title: "Home"))
      var lunch = Event(
        calendarID: home.id, title: "Lunch", start: local(2026, 6, 2, 12), end: local(2026, 6, 2, 13),
        timeZone: "Europe/Berlin")
      lunch = try owner.save(lunch, span: .thisEvent)
      let first = lunch.version
      try owner.remove(lunch, span: .thisEvent)
      // Another item of the calendar took its UID meanwhile.
      var twin = Event(
        calendarID: home.id, title: "Twin", start: local(2026, 6, 2, 12), end: local(2026, 6, 2, 13),
        timeZone: "Europe/Berlin")
      twin.externalID = lunch.externalID
      twin = try owner.save(twin, span: .thisEvent)
      var head = try store.head()
      #expect(throws: StoreError.calendar(.uidInUse(uid: lunch.externalID, name: lunch.externalID))) {
        try owner.restore(.event(lunch.id), version: first)
      }
      #expect(throws: StoreError.calendar(.versionNotFound(lunch.id, twin.version))) {
        try owner.restore(.event(lunch.id), version: twin.version)
      }
      #expect(throws: StoreError.calendar(.versionNotFound(lunch.id, LogPosition(9_999)))) {
        try owner.restore(.event(lunch.id), version: LogPosition(9_999))
      }
      #expect(try store.head() == head)

      // Its calendar gone, it cannot come back; its history says how it went.
      try owner.remove(twin, span: .thisEvent)
      try owner.remove(home)
      head = try store.head()
      #expect(throws: StoreError.calendar(.calendarNotFound(home.id))) {
        try owner.restore(.event(lunch.id), version: first)
      }
      #expect(try store.head() == head)
      let twinHistory = try owner.history(of: .event(twin.id))
      #expect(twinHistory.last?.action == .removed)
      // The calendar comes back (empty), then the event into it.
      let calendarHistory = try owner.history(of: .calendar(home.id))
      #expect(calendarHistory.map(\.action) == [.saved(.created), .removed])
      _ = try owner.restore(.calendar(home.id), version: calendarHistory[0].position)
      #expect(try owner.events(inCalendar: home.id).isEmpty)
      _ = try owner.restore(.event(lunch.id), version: first)
      #expect(try owner.events(inCalendar: home.id).map(\.title) == ["Lunch"])

      // Erased content stays erased.
      try owner.privacySettings().erase(.event(lunch.id))
      head = try store.head()
      let erased = try owner.history(of: .event(lunch.id))
      #expect(erased.filter { if case .saved = $0.action { true } else { false } }.allSatisfy { $0.state == nil })
      #expect(erased.last?.action == .contentErased)
      #expect(throws: StoreError.calendar(.versionErased(lunch.id, first))) {
        try owner.restore(.event(lunch.id), version: first)
      }
      #expect(try store.head() == head)
      let missing = ObjectID.random()
      #expect(throws: StoreError.calendar(.itemNotFound(missing))) { try owner.history(of: .event(missing)) }
    }
  }

  @Test func anItemRemovedWithItsCalendarSaysSo() throws {
    try withStore { store, _ in
      let owner = EventStore(store: store)
      let list = try owner.save(EventCalendar(title: "Errands", allowedEntityTypes: .reminders))
      let milk = try owner.save(Reminder(calendarID: list.id, title: "Buy milk"))
      try owner.remove(list)
      let history = try owner.history(of: .reminder(milk.id))
      #expect(history.map(\.action) == [.saved(.created), .removedWithCalendar(list.id)])
      let head = try store.head()
      #expect(throws: StoreError.calendar(.calendarNotFound(list.id))) {
        try owner.restore(.reminder(milk.id), version: milk.version)
      }
      #expect(try store.head() == head)
    }
  }

  @Test func contactsAndGroupsComeBack() throws {
    try withStore { store, _ in
      let owner = EventStore(store: store)
      var friends = try owner.contactStore.save(ContactGroup(name: "Friends"))
      var ada = Contact(givenName: "Ada", familyName: "Lovelace")
      ada.groupIDs = [friends.id]
      ada = try owner.contactStore.save(ada)
      var renamed = ada
      renamed.givenName = "Augusta Ada"
      renamed = try owner.contactStore.save(renamed)
      try owner.contactStore.remove(renamed)
      #expect(try owner.contactStore.contact(withID: ada.id) == nil)
      let restored = try owner.restore(.contact(ada.id), version: ada.version)
      #expect(restored.title == "Ada Lovelace")
      #expect(try owner.contactStore.contact(withID: ada.id)?.groupIDs == [friends.id])
      friends.name = "Close friends"
      friends = try owner.contactStore.save(friends)
      try owner.contactStore.remove(friends)
      let groupHistory = try owner.history(of: .group(friends.id))
      #expect(groupHistory.map { $0.state?.title } == ["Friends", "Close friends", nil])
      _ = try owner.restore(.group(friends.id), version: groupHistory[1].position)
      #expect(try owner.contactStore.groups().map(\.name) == ["Close friends"])
      #expect(try owner.items(.contact, beginningWith: String(ada.id.description.prefix(6))) == [.contact(ada.id)])
      #expect(try store.verifyProjections().isConsistent)
    }
  }

  @Test func appsGetNoHistoryAndRestoreNothingAndTheirAttemptsAreRecorded() throws {
    try withStore { store, _ in
      let fixture = try PrivacyFixture(store)
      try fixture.owner.privacySettings().setAccess(.fullAccess, for: PrivacyFixture.planner, service: .calendars)
      let app = try fixture.owner.session(for: PrivacyFixture.planner)
      let id = fixture.existing.id
      let head = try store.head()
      #expect(throws: StoreError.access(.ownerOnly("read an item's history"))) { try app.history(of: .event(id)) }
      #expect(throws: StoreError.access(.ownerOnly("restore an earlier version"))) {
        try app.restore(.event(id), version: fixture.existing.version)
      }
      #expect(throws: StoreError.access(.ownerOnly("find removed objects"))) {
        try app.items(.event, beginningWith: String(id.description.prefix(8)))
      }
      let audit = PrivacyAudit(store: store)
      let logged = try audit.history(client: PrivacyFixture.planner).filter {
        $0.kind == .ownerActionRefused && $0.position > head.position
      }
      let pending = try audit.pendingRefusals(client: PrivacyFixture.planner)
      // Refusals within a minute are tallied in one record: three attempts, counted.
      #expect(logged.reduce(0) { $0 + ($1.count ?? 1) } + pending.reduce(0) { $0 + $1.count } == 3)
      #expect(logged.first?.operation == "read an item's history")
      #expect(try fixture.owner.event(withID: id)?.version == fixture.existing.version, "nothing was saved")
    }
  }
}
