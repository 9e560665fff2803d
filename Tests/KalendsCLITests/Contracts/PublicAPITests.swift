import Foundation
import KalendsTestSupport
import Testing

/// What a program outside the package can and cannot call: each snippet is type-checked by
/// `swiftc` as a module of its own that imports `Kalends` plainly (no `@testable`, no package
/// name, no SPI), against the modules this test run built.
@Suite("Public API: what an outside program can call")
struct PublicAPITests {
  /// The package's root, from this file's path.
  static let root = Repository.root

  /// Type-checks `source` as an outside module; returns the status and the compiler's output.
  static func typecheck(_ source: String) throws -> CLI.Result {
    let directory = TemporaryDirectory("api")
    let file = directory.path + "/Client.swift"
    try ("import Kalends\n\n" + source).write(toFile: file, atomically: true, encoding: .utf8)
    let build = CLI.executable.deletingLastPathComponent().path
    return try CLI.run(
      [
        "swiftc", "-typecheck", "-module-name", "Client", "-I", build + "/Modules", "-I",
        root.path + "/Sources/CLMDB", "-I", root.path + "/Sources/CSodium", "-Xcc",
        "-fmodule-map-file=\(build)/CPrefetch.build/module.modulemap",
        "-Xcc", "-fmodule-map-file=\(build)/CSHA256.build/module.modulemap", file,
      ], program: URL(fileURLWithPath: "/usr/bin/env"))
  }

  @Test func theStoresPublicVerbsCompile() throws {
    let result = try Self.typecheck(
      """
      func tour(_ path: String) throws {
        let store = try Store.create(at: path)
        try store.annotate("migrated from v0")
        try store.annotate(contentsOf: ["one", "two"])
        let events = EventStore(store: store)
        let calendar = try events.save(EventCalendar(title: "Work"))
        try events.privacySettings().setAccess(.denied, for: "com.example.app", service: .calendars)
        _ = try events.instances(matching: EventPredicate(start: 0, end: 86_400, calendars: [calendar.id]))
        for record in try store.records(from: 1, limit: 10) { _ = (record.kind.name, try record.fields()) }
        _ = try PrivacyAudit(store: store).history()
        _ = try store.verify()
      }

      func book(_ store: Store) throws {
        let contacts = ContactStore(store: store)
        let ann = try contacts.save(Contact(givenName: "Ann"))
        let app = try EventStore(store: store).session(for: "com.example.app").contactStore
        _ = (try app.contacts(matching: .name("ann")), try contacts.exportVCards(.identifiers([ann.id]), version: .v4))
      }

      func ledger(_ store: Store) throws {
        let signer = try CheckpointSigner.generate(name: store.origin)
        let note = try store.checkpoint(signer: signer)
        let bundle = try store.proveRecord(at: 1).description
        let (record, checkpoint) = try RecordProof(parsing: bundle).check(logKey: signer.verifier)
        _ = (record.position, checkpoint.treeHead.size, note.text)
        try store.consistencyProof(from: 1).check(from: try store.treeHead(size: 1), to: try store.treeHead())
        _ = try store.verify(since: checkpoint)
      }
      """)
    #expect(result.status == 0, "\(result.stderr)")
  }

  @Test(arguments: [
    // Writing a record of any kind by any principal: a grant by "the person", forged by a caller.
    ("try store.append(RecordDraft(kind: .accessDecided, principal: .person))", "'append' is inaccessible"),
    ("try store.append(contentsOf: [])", "'append' is inaccessible"),
    ("_ = RecordDraft.annotation(\"x\")", "cannot find 'RecordDraft' in scope"),
    // Acting as a principal of the caller's choosing, and reaching the raw log from a session.
    ("_ = EventStore(store: store, actor: .client(\"com.example.app\"))", "extra argument 'actor'"),
    ("_ = try EventStore(store: store).session(for: \"com.example.app\").store", "'store' is inaccessible"),
    // Payload codecs and replay internals.
    ("_ = Payload()", "cannot find 'Payload' in scope"),
    ("_ = RecordKind.accessDecided.schema", "'schema' is inaccessible"),
    ("_ = try store.replay { _, _ in .stop }", "'replay' is inaccessible due to '@_spi' protection level"),
    ("_ = try store.record(at: 1).payload", "'payload' is inaccessible"),
    // The store server's entry points: kernel evidence made up by a caller, recorded as an
    // identification; a token looked up by its secret; unidentified callers recorded at will.
    (
      "_ = CallerEvidence(address: \"127.0.0.1\", tokenID: \"t\")",
      "'CallerEvidence' initializer is inaccessible"
    ),
    (
      "var evidence = try store.record(at: 1).identification!; evidence.uid = 0",
      "'uid' setter is inaccessible"
    ),
    (
      "_ = try EventStore(store: store).session(for: \"a\", identifiedBy: try store.record(at: 1).identification!)",
      "extra argument 'identifiedBy'"
    ),
    (
      "_ = try EventStore(store: store).client(identifiedBy: try store.record(at: 1).identification!)",
      "have 'identifiedBy:', expected 'withID:'"
    ),
    ("_ = try EventStore(store: store).token(presenting: \"secret\")", "'token' is inaccessible"),
    // Signing a checkpoint of any tree the caller names, bypassing the store's no-fork check.
    ("_ = MerkleTree.emptyRoot", "cannot find 'MerkleTree' in scope"),
    ("_ = TreeFrontier()", "cannot find 'TreeFrontier' in scope"),
    // The DAV front end's resource verbs: names, conditions and sync of resources, the package's own.
    (
      "_ = try EventStore(store: store).calendarChanges(inCalendar: ObjectID.random(), after: nil, limit: nil)",
      "'calendarChanges' is inaccessible"
    ),
    (
      "_ = try EventStore(store: store).calendarObject(named: \"a.ics\", inCalendar: ObjectID.random())",
      "'calendarObject' is inaccessible"
    ),
    ("_ = try ContactStore(store: store).contactChanges(after: nil, limit: nil)", "'contactChanges' is inaccessible"),
    ("_ = try EventStore(store: store).contactStore.contact(named: \"a.vcf\")", "(have 'named:', expected 'withID:')"),
    // Contacts are Contacts' store, not the calendar's (EventKit's `EKEventStore` has none).
    ("_ = try EventStore(store: store).contacts()", "value of type 'EventStore' has no member 'contacts'"),
    ("_ = try ContactStore(store: store).session", "'session' is inaccessible"),
    ("_ = ObjectCondition.absent", "cannot find 'ObjectCondition' in scope"),
    // The person's settings: only through PrivacySettings, which an app's session cannot obtain.
    (
      "_ = try EventStore(store: store).setAccess(.fullAccess, for: \"a\", service: .calendars)",
      "'setAccess' is inaccessible"
    ),
    ("_ = try EventStore(store: store).resetAccess()", "'resetAccess' is inaccessible"),
    ("_ = try EventStore(store: store).createToken(for: \"a\")", "'createToken' is inaccessible"),
  ])
  func anInternalIsOutOfReach(_ call: String, _ error: String) throws {
    let result = try Self.typecheck("func misuse(_ store: Store) throws {\n  \(call)\n}\n")
    #expect(result.status != 0, "\(call) compiled")
    #expect(result.stderr.contains(error), "\(call): \(result.stderr)")
  }

  /// LMDB is how Kalends stores, not what it offers: a program that imports it finds nothing.
  @Test func lmdbOffersNothingOutside() throws {
    let result = try Self.typecheck("import LMDB\n\nfunc misuse() throws {\n  _ = LMDBError.self\n}\n")
    #expect(result.status != 0, "LMDB's error type is reachable")
    #expect(result.stderr.contains("cannot find 'LMDBError' in scope"), "\(result.stderr)")
  }
}
