import Kalends
import Testing

@Suite("Privacy: who may make which record")
struct AuthorshipTests {
  @Test func anAppendByAnAuthorThatMayNotMakeTheRecordWritesNothing() throws {
    try withStore { store, _ in
      let fixture = try PrivacyFixture(store)
      let before = try store.head()
      var payload = Payload()
      payload.append(tag: 1, string: PrivacyFixture.planner)
      payload.append(tag: 2, unsigned: 1)
      payload.append(tag: 3, unsigned: 3)
      payload.append(tag: 4, unsigned: 0)
      payload.append(tag: 5, unsigned: 1)
      for principal in [Principal.client(PrivacyFixture.planner), .system, .policy("school")] {
        #expect(throws: StoreError.self, "\(principal)") {
          try store.append(RecordDraft(kind: .accessDecided, principal: principal, payload: payload))
        }
      }
      #expect(try store.head() == before)
      #expect(try fixture.owner.authorizationStatus(for: .calendars, client: PrivacyFixture.planner) == .notDetermined)
    }
  }

  @Test func onlyThePersonManagesAccessNotAFacadeActingAsSomeoneElse() throws {
    try withStore { store, _ in
      _ = try PrivacyFixture(store)
      for actor in [Principal.system, .policy("school"), .client(PrivacyFixture.planner)] {
        let facade = EventStore(store: store, actor: actor)
        #expect(throws: StoreError.self, "\(actor)") {
          try facade.privacySettings().setAccess(.fullAccess, for: PrivacyFixture.planner, service: .calendars)
        }
        #expect(throws: StoreError.self, "\(actor)") {
          try facade.register(Client(id: "com.example.other", name: "Other"))
        }
      }
    }
  }
}
