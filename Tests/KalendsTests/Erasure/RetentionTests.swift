import Foundation
import Testing

@testable import Kalends

@Suite("Retention: the system erases what was removed long enough ago")
struct RetentionTests {
  static let day: Int64 = 86_400

  /// A store with a calendar, a live event and two removed ones, and a second calendar with an
  /// event, removed whole.
  struct Fixture {
    let store: Store
    let owner: EventStore
    let live: Event
    let removed: [Event]
    let calendar: EventCalendar
    let removedCalendar: EventCalendar

    init(_ store: Store) throws {
      self.store = store
      let owner = EventStore(store: store)
      self.owner = owner
      func event(_ title: String, in calendar: EventCalendar) throws -> Event {
        try owner.save(
          Event(
            calendarID: calendar.id, title: title, start: local(2026, 6, 1, 9), end: local(2026, 6, 1, 10),
            timeZone: nil), span: .thisEvent)
      }
      let calendar = try owner.save(EventCalendar(title: "Work"))
      self.calendar = calendar
      live = try event("Live", in: calendar)
      let removed = try [event("Gone QZX7", in: calendar), event("Gone too QZX7", in: calendar)]
      for event in removed { try owner.remove(event, span: .thisEvent) }
      self.removed = removed
      let old = try owner.save(EventCalendar(title: "Old project QZX7"))
      _ = try event("In the old project QZX7", in: old)
      try owner.remove(old)
      removedCalendar = old
    }
  }

  func holdsSecret(_ store: Store) throws -> Bool {
    try store.records(from: 1, limit: .max).contains { record in
      try store.environmentValue(at: record.position.rawValue).contains(Array("QZX7".utf8))
    }
  }

  @Test func removedContactsAndGroupsOlderThanThePolicyLoseTheirContentToo() throws {
    try withStore { store, _ in
      let owner = EventStore(store: store)
      let group = try owner.contactStore.save(ContactGroup(name: "Club QZX7"))
      var gone = Contact(givenName: "Gone", familyName: "QZX7")
      gone.groupIDs = [group.id]
      gone = try owner.contactStore.save(gone)
      let kept = try owner.contactStore.save(Contact(givenName: "Kept", familyName: "Here"))
      try owner.contactStore.remove(gone)
      try owner.contactStore.remove(group)
      try owner.privacySettings().setRetention(removedAfterSeconds: Self.day)
      #expect(try holdsSecret(store))
      let later = Timestamp(rawValue: Timestamp.now().rawValue + 2 * Self.day * 1_000_000)
      let erased = Set(try owner.privacySettings().applyRetention(now: later).map(\.item))
      #expect(erased == [.contact(gone.id), .group(group.id)])
      #expect(try !holdsSecret(store))
      #expect(try owner.contactStore.contact(withID: kept.id)?.familyName == "Here")
      #expect(try store.verify().isIntact)
      #expect(try store.verifyProjections().isConsistent)
    }
  }

  @Test func removedItemsOlderThanThePolicyLoseTheirContentAndNothingElseDoes() throws {
    try withStore { store, _ in
      let fixture = try Fixture(store)
      let policy = try #require(try fixture.owner.privacySettings().setRetention(removedAfterSeconds: 30 * Self.day))
      #expect(policy.removedAfterSeconds == 30 * Self.day)
      let decided = try store.record(at: policy.setAt)
      #expect(decided.kind == .retentionSet && decided.principal == .person)

      let now = Timestamp.now()
      #expect(try fixture.owner.privacySettings().applyRetention(now: now).isEmpty, "nothing is due yet")
      #expect(
        try fixture.owner.privacySettings().applyRetention(
          now: Timestamp(rawValue: now.rawValue + 29 * Self.day * 1_000_000)
        ).isEmpty)
      #expect(try holdsSecret(store))

      let later = Timestamp(rawValue: now.rawValue + 31 * Self.day * 1_000_000)
      let erasures = try fixture.owner.privacySettings().applyRetention(now: later)
      let erased = Set(erasures.map(\.item))
      #expect(erased.isSuperset(of: fixture.removed.map { .event($0.id) } + [.calendar(fixture.removedCalendar.id)]))
      #expect(!erased.contains(.event(fixture.live.id)) && !erased.contains(.calendar(fixture.calendar.id)))
      for erasure in erasures {
        let record = try store.record(at: try #require(erasure.record))
        #expect(record.principal == .system)
        let fields = try namedFields(record)
        #expect(fields["retentionPolicy"] == .unsigned(policy.setAt.rawValue))
        #expect(fields["reason"] == .string("retention: removed more than 30 days ago"))
      }
      #expect(try !holdsSecret(store))
      #expect(try fixture.owner.event(withID: fixture.live.id)?.title == "Live")
      #expect(try store.verify().isIntact)
      #expect(try store.verifyProjections().isConsistent)
      let head = try store.head()
      #expect(
        try fixture.owner.privacySettings().applyRetention(now: later).isEmpty, "what is erased is not erased again")
      #expect(try store.head() == head)
    }
  }

  @Test func thePolicyIsThePersonsRecordedDecisionAndOffTurnsItOff() throws {
    try withStore { store, _ in
      let fixture = try PrivacyFixture(store)
      let app = try fixture.owner.session(for: PrivacyFixture.planner)
      #expect(throws: StoreError.access(.ownerOnly("change privacy settings"))) { try app.privacySettings() }
      #expect(try store.lastRecords(1).first?.kind == .ownerActionRefused)
      let head = try store.head()
      #expect(throws: StoreError.self) { try fixture.owner.privacySettings().setRetention(removedAfterSeconds: -1) }
      #expect(throws: StoreError.self) {
        try fixture.owner.privacySettings().setRetention(removedAfterSeconds: 200 * 366 * Self.day)
      }
      #expect(try store.head() == head, "a refused policy writes nothing")
      #expect(try fixture.owner.retentionPolicy() == nil)
      #expect(
        try fixture.owner.privacySettings().setRetention(removedAfterSeconds: Self.day)?.removedAfterSeconds == Self.day
      )
      #expect(try fixture.owner.privacySettings().setRetention(removedAfterSeconds: nil) == nil)
      #expect(try fixture.owner.retentionPolicy() == nil)
      _ = try store.rebuildProjections()
      #expect(try fixture.owner.retentionPolicy() == nil, "the policy in force is derived from the log")
    }
  }

  @Test func onlyThePersonsPolicyLetsTheSystemErase() throws {
    var bare = Payload()
    bare.append(tag: 1, unsigned: 2)
    #expect(RecordAuthority.violation(kind: .contentErased, principal: .system, payload: bare.bytes.span.bytes) != nil)
    var named = bare
    named.append(tag: 8, unsigned: 5)
    #expect(RecordAuthority.violation(kind: .contentErased, principal: .system, payload: named.bytes.span.bytes) == nil)
    #expect(
      RecordAuthority.violation(kind: .contentErased, principal: .client("a.b"), payload: named.bytes.span.bytes) != nil
    )
    #expect(RecordAuthority.violation(kind: .retentionSet, principal: .system, payload: bare.bytes.span.bytes) != nil)
  }
}
