import Foundation
import KalendsTestSupport
import Testing

@testable import Kalends

/// Issue 32 through the `kalends` executable: what a person erased is found nowhere — not in the
/// data file once compacted, a new backup, the log's output, an export or a query — while every
/// check of the ledger passes, also by independent code, and its attacks are still caught.
@Suite("Command line: erasing content, keeping every proof")
struct EraseCommandTests {

  func bytes(_ path: String) throws -> Data { try Data(contentsOf: URL(fileURLWithPath: path)) }

  @Test func anErasedEventIsFoundNowhereAndEveryCheckStillPasses() throws {
    let erasable = try ErasableStore()
    let store = erasable.store
    let path = store.directory.storePath
    let erased = try store.object(["erase", "event", erasable.event, "--reason", "asked to forget"])
    let positions = try #require(erased["erasedPositions"] as? [Int])
    #expect(positions.count == 2)
    #expect(erased["removal"] is Int && erased["record"] is Int)

    // Every read path of the store and its files.
    for arguments in [
      ["log", "tail", "-n", "100"], ["log", "show", String(positions[0])], ["log", "show", String(positions[1])],
      ["export", "--calendar", erasable.calendar], ["events", "--from", "2026-11-01", "--to", "2027-01-01"],
      ["audit", "history"],
    ] {
      let result = try store.run(arguments)
      #expect(result.status == 0, "\(arguments): \(result.stderr)")
      #expect(!ErasableStore.holdsSecret(Data(result.stdout.utf8)), "\(arguments) shows erased content")
    }
    #expect(try store.run(["event", "show", erasable.event]).status == 66)
    let shown = try store.object(["log", "show", String(positions[0])])
    #expect(shown["content"] as? String == "erased")
    #expect((shown["payload"] as? [String: Any])?.keys.sorted() == ["calendarId", "change", "id"])

    let backup = store.directory.path + "/backup"
    #expect(try store.run(["backup", backup]).status == 0)
    #expect(!ErasableStore.holdsSecret(try bytes(backup + "/data.mdb")), "a backup taken afterwards holds none of it")
    let compacted = try store.object(["compact"])
    #expect((compacted["bytesAfter"] as? Int ?? .max) <= (compacted["bytesBefore"] as? Int ?? 0))
    #expect(!ErasableStore.holdsSecret(try bytes(path + "/data.mdb")), "compaction leaves none of it in the data file")

    // Kalends' checks, the kept checkpoint, the independent decoder.
    #expect(try store.run(["verify"]).status == 0)
    #expect(try erasable.audited.verifySince().status == 0, "the checkpoint from before the erasure holds")
    let decoded = try CLI.run(
      ["python3", IndependentDecoderTests.script, "--verify", path], program: URL(fileURLWithPath: "/usr/bin/env"))
    #expect(decoded.status == 0, "\(decoded.stdout) \(decoded.stderr)")
    #expect((try json(decoded.stdout) as? [String: Any])?["intact"] as? Bool == true)

    // A proof of an erased record, checked by Kalends with no store, by the oracle and by sigstore.
    let bundle = erasable.audited.files.path + "/erased.tlog-proof"
    #expect(try store.run(["audit", "prove", String(positions[0]), "--out", bundle]).status == 0)
    #expect(!ErasableStore.holdsSecret(try bytes(bundle)))
    let checked = try CLI.run(
      ["audit", "check-proof", bundle, "--key", erasable.audited.verifier, "--format", "json"],
      environment: ["KALENDS_STORE": erasable.audited.files.path + "/nowhere"])
    #expect(checked.status == 0, "\(checked.stderr)")
    let record = (try json(checked.stdout) as? [String: Any])?["record"] as? [String: Any]
    #expect(record?["content"] as? String == "erased" && record?["kind"] as? String == "eventSaved")
    let oracle = try TlogOracle.run(["check-proof", bundle, erasable.audited.verifier])
    #expect(oracle.status == 0, "\(oracle.stderr)")
    #expect(oracle.stdout.contains("\"content\": \"erased\""))
    let sigstore = try TlogOracle.sigstore(bundle, erasable.audited.verifier)
    #expect(sigstore.status == 0, "\(sigstore.stderr)")
    // A proof of a record that still has content is checked by the same independent code.
    let kept = erasable.audited.files.path + "/kept.tlog-proof"
    let last = try #require(try store.object(["log", "head"])["head"] as? Int)
    #expect(try store.run(["audit", "prove", String(last - 2), "--out", kept]).status == 0)
    #expect(try TlogOracle.sigstore(kept, erasable.audited.verifier).status == 0)
  }

  @Test func anAppMayNotEraseAndTheAttemptIsRecorded() throws {
    let erasable = try ErasableStore()
    let store = erasable.store
    let head = try store.head()
    let refused = try store.run(["erase", "event", erasable.event, "--as", "com.example.social"])
    #expect(refused.status == 68, "\(refused.stderr)")
    let last = try #require(try store.objects(["log", "tail", "-n", "1"]).first)
    #expect(last["kind"] as? String == "ownerActionRefused")
    #expect(try store.head() != head)
    let shown = try store.object(["event", "show", erasable.event])
    #expect(shown["title"] as? String == ErasableStore.secret + " (moved)", "nothing was erased")
  }

  @Test func compactionNeedsTheStoreAloneAndChangesNothingOtherwise() throws {
    let store = try CLIStore()
    let path = store.directory.storePath
    // Python's lmdb binding keeps the environment open in another process.
    let holder = try CLI.start(
      [
        "python3", "-c",
        "import lmdb,sys,time; e=lmdb.open(sys.argv[1],max_dbs=64,readonly=True); "
          + "print('open', flush=True); time.sleep(30)", path,
      ],
      program: URL(fileURLWithPath: "/usr/bin/env"))
    defer { holder.0.terminate() }
    var opened = false
    for _ in 0..<100 where !opened {
      Thread.sleep(forTimeInterval: 0.05)
      opened = holder.1.fileHandleForReading.availableData.count > 0
    }
    #expect(opened)
    let before = try bytes(path + "/data.mdb")
    let refused = try store.run(["compact"])
    #expect(refused.status == 67, "\(refused.stderr)")
    #expect(refused.stderr.contains("another process has the store"))
    #expect(try bytes(path + "/data.mdb") == before)
    holder.0.terminate()
    holder.0.waitUntilExit()
    #expect(try store.run(["compact"]).status == 0)
    #expect(try store.run(["verify"]).status == 0)
  }

  /// The attacks of issue 29 on a log that holds erased records: the rewritten chain passes
  /// `verify`, the checkpoint kept from after the erasure does not.
  @Test(arguments: ["rewrite a decision", "truncate"])
  func anAttackOnALogWithErasedRecordsIsStillCaughtByTheKeptCheckpoint(attack: String) throws {
    let erasable = try ErasableStore()
    let store = erasable.store
    try store.object(["erase", "event", erasable.event])
    for index in 0..<4 { try store.run(["log", "annotate", "after \(index)"]) }
    let signed = try store.run(["checkpoint", "sign", "--key", erasable.audited.key])
    try signed.stdout.write(toFile: erasable.audited.kept, atomically: true, encoding: .utf8)
    try LogRewriter.rewrite(store.directory.storePath) { entries in
      switch attack {
      case "rewrite a decision": try LogRewriter.grantTheFirstDecision(&entries)
      default: entries.removeLast(3)
      }
    }
    #expect(try store.run(["rebuild"]).status == 0, "\(attack)")
    let verified = try store.run(["verify", "--log-only"])
    #expect(verified.status == 0, "\(attack): the rewritten chain passes verify: \(verified.stderr)")
    let since = try erasable.audited.verifySince()
    #expect(since.status == 69 && since.stderr.contains("checkpointMismatch"), "\(attack): \(since.stderr)")
  }
}

@Suite("Command line: retention")
struct RetentionCommandTests {
  @Test func theServerErasesWhatThePolicyMakesDueWhenItStarts() throws {
    let store = try CLIStore()
    let calendar = try store.calendar("Work")
    let event = try #require(
      try store.object([
        "event", "add", "--calendar", calendar, "--title", "Gone QZX7", "--start", "2026-12-01T10:00:00Z", "--end",
        "2026-12-01T11:00:00Z",
      ])["id"] as? String)
    #expect(try store.run(["event", "remove", event]).status == 0)
    let set = try store.object(["retention", "set", "--removed-after", "2s"])
    #expect((set["policy"] as? [String: Any])?["removedAfter"] as? Int == 2)
    #expect((set["erased"] as? [Any])?.isEmpty == true, "removed less than 2 s ago: not yet due")
    #expect(try store.run(["retention", "show"]).stdout.contains("2s after their removal"))
    #expect(try store.run(["retention", "set", "--removed-after", "soon"]).status == 64)
    // The removal aged past the policy's 2 s: the server's clock stands 3 s ahead (the tests'
    // clock, which a debug build takes from the environment).
    let served = try ServedStore(serving: store, environment: ["KALENDS_TEST_CLOCK_OFFSET": "3"])
    var erased: [[String: Any]] = []
    for _ in 0..<100 where erased.isEmpty {
      erased = try served.records("contentErased")
      if erased.isEmpty { Thread.sleep(forTimeInterval: 0.1) }
    }
    served.stop()
    let record = try #require(erased.first)
    #expect((record["actor"] as? [String: Any])?["type"] as? String == "system")
    #expect(!(try store.run(["log", "tail", "-n", "50"]).stdout.contains("QZX7")))
    #expect(try store.run(["verify"]).status == 0)
    let applied = try store.run(["retention", "apply"])
    #expect(applied.stdout.contains("nothing is due"), "\(applied.stdout)")
  }
}
