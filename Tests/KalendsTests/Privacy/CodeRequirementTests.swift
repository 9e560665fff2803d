import Foundation
import Kalends
import Testing

@Suite("Privacy: code requirements identify an app's processes")
struct CodeRequirementTests {
  static let digest = [UInt8](repeating: 0xAB, count: 32)
  static let agenda = CodeRequirement(executable: "/opt/agenda/bin/agenda", sha256: digest)

  static func evidence(
    executable: String? = "/opt/agenda/bin/agenda", sha256: [UInt8]? = digest, flatpak: String? = nil
  ) -> CallerEvidence {
    CallerEvidence(
      uid: 1000, gid: 1000, pid: 4242, executable: executable, executableSHA256: sha256, flatpakApp: flatpak)
  }

  @Test func aRequirementIsSatisfiedOnlyByEveryPartItNames() {
    #expect(Self.agenda.isSatisfied(by: Self.evidence()))
    #expect(!Self.agenda.isSatisfied(by: Self.evidence(sha256: [UInt8](repeating: 0xAC, count: 32))))
    #expect(!Self.agenda.isSatisfied(by: Self.evidence(sha256: nil)))
    #expect(!Self.agenda.isSatisfied(by: Self.evidence(executable: "/tmp/agenda")))
    let flatpak = CodeRequirement(flatpakApp: "org.example.Agenda")
    #expect(flatpak.isSatisfied(by: Self.evidence(executable: "/app/bin/agenda", flatpak: "org.example.Agenda")))
    #expect(!flatpak.isSatisfied(by: Self.evidence(flatpak: "org.example.Other")))
    #expect(!flatpak.isSatisfied(by: Self.evidence()))
    let empty = CodeRequirement(executable: nil, executableSHA256: nil, flatpakApp: nil)
    #expect(!empty.isSatisfied(by: Self.evidence()), "a requirement of nothing identifies nobody")
  }

  @Test func theRequirementIsPartOfTheRegistrationAndSurvivesARebuild() throws {
    try withStore { store, _ in
      let owner = EventStore(store: store)
      try owner.register(Client(id: "com.example.agenda", name: "Agenda", requirement: Self.agenda))
      #expect(try owner.client(withID: "com.example.agenda")?.requirement == Self.agenda)
      _ = try store.rebuildProjections()
      #expect(try owner.client(withID: "com.example.agenda")?.requirement == Self.agenda)
      #expect(try owner.client(identifiedBy: Self.evidence())?.id == "com.example.agenda")
      #expect(try owner.client(identifiedBy: Self.evidence(sha256: [UInt8](repeating: 0, count: 32))) == nil)
      // Registering again without a requirement removes it: the registration is the whole of it.
      try owner.register(Client(id: "com.example.agenda", name: "Agenda"))
      #expect(try owner.client(identifiedBy: Self.evidence()) == nil)
    }
  }

  /// A process matching two apps would be neither: the second app on one executable is refused,
  /// naming the first, and writes nothing; the first keeps its processes.
  @Test func aSecondAppOnOneExecutableIsRefused() throws {
    try withStore { store, _ in
      let owner = EventStore(store: store)
      try owner.register(Client(id: "com.example.agenda", name: "Agenda", requirement: Self.agenda))
      let head = try store.head()
      #expect {
        try owner.register(Client(id: "com.example.copy", name: "Copy", requirement: Self.agenda))
      } throws: { error in
        guard case StoreError.access(.requirementHeld(let client, _, let holder)) = error else { return false }
        return client == "com.example.copy" && holder == "com.example.agenda"
      }
      #expect(try store.head() == head)
      #expect(try owner.client(withID: "com.example.copy") == nil)
      #expect(try owner.client(identifiedBy: Self.evidence())?.id == "com.example.agenda")
    }
  }

  @Test func aRequirementThatChecksNothingIsRefusedAndWritesNothing() throws {
    try withStore { store, _ in
      let owner = EventStore(store: store)
      let before = try store.head()
      let bad: [CodeRequirement] = [
        CodeRequirement(executable: "bin/agenda", sha256: Self.digest),
        CodeRequirement(executable: "/bin/agenda", executableSHA256: nil, flatpakApp: nil),
        CodeRequirement(executable: "/bin/agenda", sha256: [1, 2, 3]),
        CodeRequirement(executable: nil, executableSHA256: Self.digest, flatpakApp: nil),
        CodeRequirement(executable: nil, executableSHA256: nil, flatpakApp: nil),
        CodeRequirement(flatpakApp: "org.example.Agenda\u{202E}"),
      ]
      for requirement in bad {
        #expect(throws: StoreError.self, "\(requirement)") {
          try owner.register(Client(id: "com.example.agenda", name: "Agenda", requirement: requirement))
        }
      }
      #expect(try store.head() == before)
    }
  }

  @Test func onlyTheOwnerIdentifiesCallersAndOnlyTheSystemRecordsThem() throws {
    try withStore { store, _ in
      let owner = EventStore(store: store)
      try owner.register(Client(id: "com.example.agenda", name: "Agenda", requirement: Self.agenda))
      let session = try owner.session(for: "com.example.agenda")
      #expect(throws: StoreError.self) { try session.client(identifiedBy: Self.evidence()) }
      #expect(throws: StoreError.self) { try session.recordUnidentifiedCaller(Self.evidence()) }
      let header = try owner.recordUnidentifiedCaller(Self.evidence(executable: "/tmp/x"))
      #expect(header.principal == .system)
      #expect(header.kind == .callerUnidentified)
      let fields = try store.record(at: header.position).fields()
      #expect(fields.map(\.name) == ["uid", "gid", "pid", "executable", "executableSha256"])
      // An app cannot write one, in its own name or the system's place.
      let before = try store.head()
      #expect(throws: StoreError.self) {
        try store.append(
          RecordDraft(kind: .callerUnidentified, principal: .client("com.example.agenda"), payload: Payload()))
      }
      #expect(try store.head() == before)
    }
  }

  @Test func theAuditListsTheCallersTheServerCouldNotIdentify() throws {
    try withStore { store, _ in
      let owner = EventStore(store: store)
      let first = try owner.recordUnidentifiedCaller(Self.evidence(executable: "/tmp/copy"))
      try owner.save(EventCalendar(title: "Between"))
      Thread.sleep(forTimeInterval: 0.002)  // the window below splits the two by time
      let second = try owner.recordUnidentifiedCaller(
        CallerEvidence(address: "192.0.2.7:50000", tokenID: "0123456789abcdef"), count: 7, minute: 29_000_000)
      let audit = PrivacyAudit(store: store)
      let callers = try audit.unidentifiedCallers()
      #expect(callers.map(\.position) == [first.position, second.position])
      #expect(callers[0].evidence.executable == "/tmp/copy" && callers[0].evidence.uid == 1000)
      #expect(callers[0].evidence.executableSHA256 == Self.digest && callers[0].count == 1)
      #expect(callers[1].evidence.address == "192.0.2.7:50000" && callers[1].evidence.tokenID == "0123456789abcdef")
      #expect(callers[1].evidence.uid == nil && callers[1].count == 7)
      #expect(try audit.unidentifiedCallers(since: second.timestamp).map(\.position) == [second.position])
      #expect(try audit.unidentifiedCallers(until: first.timestamp).isEmpty)
    }
  }
}
