import Foundation
import Kalends
import Testing

/// App tokens: created and revoked by the person only, stored as digests, checked against the
/// stored state on every call of a session that presented one.
@Suite("Privacy: app tokens for the store server's TCP callers")
struct ClientTokenTests {
  @Test func aTokenIsKeptAsADigestAndFoundByItsSecretUntilRevoked() throws {
    try withStore { store, path in
      let fixture = try PrivacyFixture(store)
      let (token, secret) = try fixture.owner.privacySettings().createToken(
        for: PrivacyFixture.planner, label: "laptop")
      #expect(token.client == PrivacyFixture.planner && token.label == "laptop")
      #expect(token.id.count == 16 && token.id == ClientToken.id(ofSecret: secret))
      #expect(try fixture.owner.token(presenting: secret) == token)
      #expect(try fixture.owner.privacySettings().tokens() == [token])
      #expect(try fixture.owner.token(presenting: secret + "x") == nil)
      #expect(try fixture.owner.token(presenting: "not a token") == nil)
      let bytes = try Data(contentsOf: URL(fileURLWithPath: path + "/data.mdb"))
      #expect(bytes.range(of: Data(secret.utf8)) == nil)

      let second = try fixture.owner.privacySettings().createToken(for: PrivacyFixture.planner)
      #expect(second.secret != secret && second.0.id != token.id)
      try fixture.owner.privacySettings().revokeToken(token.id, of: PrivacyFixture.planner)
      #expect(try fixture.owner.token(presenting: secret) == nil)
      #expect(try fixture.owner.privacySettings().tokens(of: PrivacyFixture.planner).map(\.id) == [second.0.id])
      // A second revocation, or a token of another app: refused, nothing written.
      let head = try store.head()
      #expect(throws: StoreError.access(.tokenNotFound(client: PrivacyFixture.planner, token: token.id))) {
        try fixture.owner.privacySettings().revokeToken(token.id, of: PrivacyFixture.planner)
      }
      #expect(throws: StoreError.self) { try fixture.owner.privacySettings().createToken(for: "com.example.unknown") }
      #expect(throws: StoreError.self) {
        try fixture.owner.privacySettings().createToken(for: PrivacyFixture.planner, label: "a\nb")
      }
      #expect(try store.head() == head)
      // The projection is the log's: a rebuild gives the same tokens.
      #expect(try store.verifyProjections().isConsistent)
      let audit = try PrivacyAudit(store: store).history(client: PrivacyFixture.planner)
      #expect(audit.filter { $0.kind == .clientTokenCreated }.map(\.tokenID) == [token.id, second.0.id])
      #expect(audit.filter { $0.kind == .clientTokenRevoked }.map(\.tokenID) == [token.id])
    }
  }

  @Test func onlyThePersonCreatesAndRevokesTokens() throws {
    try withStore { store, _ in
      let fixture = try PrivacyFixture(store)
      let session = try fixture.owner.session(for: PrivacyFixture.planner)
      #expect(throws: StoreError.self) { try session.privacySettings().createToken(for: PrivacyFixture.planner) }
      #expect(throws: StoreError.self) { try session.privacySettings().tokens() }
      let refused = try PrivacyAudit(store: store).history(client: PrivacyFixture.planner).filter {
        $0.kind == .ownerActionRefused
      }
      #expect(refused.count == 1)
      // A forged creation by the app itself or by the system is refused by the log's rules.
      let secret = "kalends_forged"
      var payload = Payload()
      payload.append(tag: 1, string: PrivacyFixture.planner)
      payload.append(tag: 2, string: ClientToken.id(ofSecret: secret))
      payload.append(tag: 3, bytes: Array(repeating: 0, count: 32))
      let head = try store.head()
      for principal in [Principal.client(PrivacyFixture.planner), .system] {
        #expect(throws: StoreError.self, "\(principal)") {
          try store.append(RecordDraft(kind: .clientTokenCreated, principal: principal, payload: payload))
        }
      }
      // By the person, a digest that does not match its id is refused too.
      #expect(throws: StoreError.self) {
        try store.append(RecordDraft(kind: .clientTokenCreated, principal: .person, payload: payload))
      }
      #expect(try store.head() == head)
      #expect(try fixture.owner.privacySettings().tokens().isEmpty)
    }
  }

  @Test func aSessionOpenedByATokenEndsWhenItIsRevoked() throws {
    try withStore { store, _ in
      let fixture = try PrivacyFixture(store)
      try fixture.owner.privacySettings().setAccess(.fullAccess, for: PrivacyFixture.planner, service: .calendars)
      let (token, _) = try fixture.owner.privacySettings().createToken(for: PrivacyFixture.planner)
      let evidence = CallerEvidence(address: "127.0.0.1:5000", tokenID: token.id, connection: 7)
      #expect(evidence.method == "token")
      let session = try fixture.owner.session(for: PrivacyFixture.planner, identifiedBy: evidence)
      let saved = try session.save(fixture.newEvent(), span: .thisEvent)
      let record = try #require(try store.lastRecords(1).first)
      #expect(record.header.formatVersion == 3, "a save is written in the version whose content can be erased")
      #expect(record.identification == evidence)
      // Another app's token, or an unknown one, opens no session for this app.
      try fixture.owner.register(Client(id: "com.example.other", name: "Other"))
      let (other, _) = try fixture.owner.privacySettings().createToken(for: "com.example.other")
      for id in [other.id, "0000000000000000"] {
        #expect(throws: StoreError.access(.notIdentified(client: PrivacyFixture.planner))) {
          try fixture.owner.session(
            for: PrivacyFixture.planner, identifiedBy: CallerEvidence(address: "127.0.0.1:1", tokenID: id))
        }
      }
      try fixture.owner.privacySettings().revokeToken(token.id, of: PrivacyFixture.planner)
      #expect(throws: StoreError.access(.tokenRevoked(client: PrivacyFixture.planner, token: token.id))) {
        try session.event(withID: saved.id)
      }
    }
  }
}
