import Foundation
import KalendsTestSupport
import Testing

@testable import Kalends

/// Issue 29 through the `kalends` executable: keys, signed checkpoints, proof bundles checked with
/// no store and by an independent implementation, and the attacks a checkpoint kept outside the
/// store catches.
@Suite("Command line: checkpoints, proofs and the attacks they catch")
struct TransparencyCLITests {
  @Test func aKeyIsWrittenForItsOwnerOnlyAndNeverOverwritten() throws {
    let audited = try AuditedStore()
    let mode = try FileManager.default.attributesOfItem(atPath: audited.key)[.posixPermissions] as? Int
    #expect(mode == 0o600)
    let again = try audited.store.run(["key", "generate", "--out", audited.key])
    #expect(again.status == 67)
    #expect(try NoteVerifier(audited.verifier).name.hasPrefix("kalends/"))
    try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: audited.key)
    let exposed = try audited.store.run(["checkpoint", "sign", "--key", audited.key])
    #expect(exposed.status == 68, "a key others may read is refused: \(exposed.stderr)")
  }

  @Test func aCheckpointIsASignedNoteThatCryptographyVerifies() throws {
    let audited = try AuditedStore()
    let head = try audited.store.object(["log", "head"])
    let checked = try TlogOracle.run(["check-note", audited.kept, audited.verifier])
    #expect(checked.status == 0, "\(checked.stderr)")
    let fields = try #require(try json(checked.stdout) as? [String: Any])
    #expect(fields["size"] as? Int == head["treeSize"] as? Int)
    #expect(fields["root"] as? String == head["treeRoot"] as? String)
    #expect((fields["origin"] as? String)?.hasPrefix("kalends/") == true)
    let shown = try audited.store.run(["checkpoint", "show"])
    #expect(shown.stdout == (try String(contentsOfFile: audited.kept, encoding: .utf8)))
  }

  @Test func aProofOfADenialIsCheckedWithNoStoreByKalendsAndByAnIndependentChecker() throws {
    let audited = try AuditedStore()
    let records = try audited.store.objects(["log", "tail", "-n", "30"])
    let denial = try #require(records.first { $0["kind"] as? String == "accessDecided" })
    let position = try #require(denial["position"] as? Int)
    let bundle = audited.files.path + "/denial.tlog-proof"
    let proved = try audited.store.run(["audit", "prove", String(position), "--out", bundle])
    #expect(proved.status == 0, "\(proved.stderr)")
    // No store at all: a process without --store or $KALENDS_STORE pointing anywhere real.
    let checked = try CLI.run(
      ["audit", "check-proof", bundle, "--key", audited.verifier, "--format", "json"],
      environment: ["KALENDS_STORE": audited.files.path + "/nowhere"])
    #expect(checked.status == 0, "\(checked.stderr)")
    let result = try #require(try json(checked.stdout) as? [String: Any])
    let record = try #require(result["record"] as? [String: Any])
    #expect(record["position"] as? Int == position)
    #expect(record["kind"] as? String == "accessDecided")
    let independent = try TlogOracle.run(["check-proof", bundle, audited.verifier])
    #expect(independent.status == 0, "\(independent.stderr)")
    #expect(independent.stdout.contains("\"index\": \(position - 1)"))
    // The PyPI sigstore package's own note parser and RFC 6962 inclusion verification.
    let bySigstore = try TlogOracle.sigstore(bundle, audited.verifier)
    #expect(bySigstore.status == 0, "sigstore: \(bySigstore.stderr)")
    #expect(bySigstore.stdout.contains("\"index\": \(position - 1)"))
    let moved = try String(contentsOfFile: bundle, encoding: .utf8)
      .replacingOccurrences(of: "index \(position - 1)\n", with: "index \(position)\n")
    try moved.write(toFile: bundle + ".moved", atomically: true, encoding: .utf8)
    let movedCheck = try TlogOracle.sigstore(bundle + ".moved", audited.verifier)
    #expect(movedCheck.status == 1, "sigstore refuses a proof moved to another index: \(movedCheck.stdout)")
    let stranger = try CheckpointSigner.generate(name: "someone.else").verifier.description
    let refused = try CLI.run(["audit", "check-proof", bundle, "--key", stranger])
    #expect(refused.status == 69, "another key's checkpoint proves nothing: \(refused.stderr)")
  }

  @Test func everyAlteredByteOfABundleFailsTheCheck() throws {
    let audited = try AuditedStore()
    let bundle = audited.files.path + "/note.tlog-proof"
    #expect(try audited.store.run(["audit", "prove", "5", "--out", bundle]).status == 0)
    let text = try String(contentsOfFile: bundle, encoding: .utf8)
    let verifier = try NoteVerifier(audited.verifier)
    _ = try RecordProof(parsing: text).check(logKey: verifier)
    var bytes = Array(text.utf8)
    for index in bytes.indices {
      bytes[index] ^= 0x01
      let altered = String(decoding: bytes, as: UTF8.self)
      #expect(throws: (any Error).self, "byte \(index)") {
        _ = try RecordProof(parsing: altered).check(logKey: verifier)
      }
      bytes[index] ^= 0x01
    }
    bytes[bytes.count / 2] ^= 0x01
    try Data(bytes).write(to: URL(fileURLWithPath: bundle))
    #expect(try CLI.run(["audit", "check-proof", bundle, "--key", audited.verifier]).status == 69)
  }

  @Test func theLogExtendsAKeptCheckpointAndWritesWithAKeyConfiguredSignTheirOwn() throws {
    let audited = try AuditedStore()
    #expect(try audited.verifySince().status == 0)
    let more = try CLI.run(
      ["log", "annotate", "one more", "--store", audited.store.directory.storePath],
      environment: ["KALENDS_CHECKPOINT_KEY": audited.key])
    #expect(more.status == 0, "\(more.stderr)")
    let sizes = try audited.store.run(["checkpoint", "list"]).stdout.split(separator: "\n").compactMap { Int($0) }
    #expect(sizes.count == 2 && sizes[1] == sizes[0] + 1, "one checkpoint per commit: \(sizes)")
    #expect(try audited.verifySince().status == 0, "the longer log still extends the kept checkpoint")
  }

  /// Each attack is a full rewrite: records re-encoded, re-chained, the tree and head recomputed,
  /// the projections rebuilt. `verify` passes afterwards; the kept checkpoint does not.
  @Test(arguments: ["rewrite a decision", "drop and renumber", "truncate", "swap", "forge an actor"])
  func anAttackThatPassesVerifyIsCaughtByTheKeptCheckpoint(attack: String) throws {
    let audited = try AuditedStore()
    let path = audited.store.directory.storePath
    try LogRewriter.rewrite(path) { entries in
      let notes = entries.indices.filter { entries[$0].kind == .annotationAdded }
      switch attack {
      case "rewrite a decision": try LogRewriter.grantTheFirstDecision(&entries)
      case "drop and renumber": entries.remove(at: notes[3])
      case "truncate": entries.removeLast(4)
      case "swap": entries.swapAt(notes[2], notes[3])
      default: entries[notes[5]].principal = .system
      }
    }
    let rebuilt = try audited.store.run(["rebuild"])
    let verified = try audited.store.run(["verify", "--log-only"])
    if attack != "forge an actor" {
      #expect(rebuilt.status == 0, "\(attack): \(rebuilt.stderr)")
      #expect(verified.status == 0, "\(attack): the rewritten chain and tree pass verify: \(verified.stderr)")
    }
    let since = try audited.verifySince()
    #expect(since.status == 69, "\(attack)")
    #expect(
      since.stderr.contains("checkpointMismatch") || (attack == "forge an actor" && since.stderr.contains("(")),
      "\(attack): \(since.stderr)")
  }

  @Test func aStoreRefusesToSignAForkOfItsOwnCheckpoint() throws {
    let audited = try AuditedStore()
    try LogRewriter.rewrite(audited.store.directory.storePath) { entries in
      let note = try #require(entries.indices.last { entries[$0].kind == .annotationAdded })
      entries[note].timestamp = Timestamp(rawValue: entries[note].timestamp.rawValue + 1)
    }
    let signed = try audited.store.run(["checkpoint", "sign", "--key", audited.key])
    #expect(signed.status == 69, "\(signed.stderr)")
    #expect(signed.stderr.contains("refusing to sign"))
  }

  /// A witness in its own process on loopback: it cosigns the store's checkpoints over HTTP, its
  /// cosignatures are kept with them, and proofs demand them with --witness and --quorum.
  @Test func aWitnessProcessCosignsOverHTTPAndProofsDemandItsCosignature() throws {
    let audited = try AuditedStore()
    let witnessKey = audited.files.path + "/witness.key"
    let generated = try CLI.run(["key", "generate", "witness.example/w1", "--cosigner", "--out", witnessKey])
    try #require(generated.status == 0, "\(generated.stderr)")
    let witnessVerifier = generated.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    let (process, output, _) = try CLI.start([
      "witness", "serve", "--key", witnessKey, "--log", audited.verifier, "--state", audited.files.path + "/witness",
    ])
    defer {
      process.terminate()
      process.waitUntilExit()
    }
    var announced = ""
    while !announced.contains("\n") {
      let data = output.fileHandleForReading.availableData
      try #require(!data.isEmpty, "the witness ended before listening")
      announced += String(decoding: data, as: UTF8.self)
    }
    let address = try #require(announced.split(separator: " ").last?.trimmingCharacters(in: .whitespacesAndNewlines))
    let url = "http://\(address)"
    // A client that sends its request a byte at a time is closed, as by the store server.
    let slow = try CLI.run(
      CLI.slowClient(
        to: address, opening: "POST /add-checkpoint HTTP/1.1\r\nHost: w\r\nX-Slow: ", trickle: "a", every: 0.5, for: 40),
      program: URL(fileURLWithPath: "/usr/bin/env"))
    try #require(slow.status == 0, "\(slow.stderr)")
    let closed = slow.stdout
    let seconds = try #require(Double(closed.trimmingCharacters(in: .whitespacesAndNewlines)))
    #expect(seconds < 20, "the witness closed a slow client after \(seconds) s")
    for round in 0..<2 {
      try audited.store.run(["log", "annotate", "round \(round)"])
      let signed = try audited.store.run(["checkpoint", "sign", "--key", audited.key, "--witness", url])
      #expect(signed.status == 0, "round \(round): \(signed.stderr)")
      #expect(signed.stdout.contains("\u{2014} witness.example/w1 "), "round \(round)")
    }
    let bundle = audited.files.path + "/cosigned.tlog-proof"
    #expect(try audited.store.run(["audit", "prove", "3", "--out", bundle]).status == 0)
    let checked = try CLI.run([
      "audit", "check-proof", bundle, "--key", audited.verifier, "--witness", witnessVerifier, "--quorum", "1",
    ])
    #expect(checked.status == 0, "\(checked.stderr)")
    let otherWitness = try CLI.run([
      "key", "generate", "other.example/w", "--cosigner", "--out", audited.files.path + "/o.key",
    ])
    let unmet = try CLI.run([
      "audit", "check-proof", bundle, "--key", audited.verifier, "--witness",
      otherWitness.stdout.trimmingCharacters(in: .whitespacesAndNewlines),
    ])
    #expect(unmet.status == 69, "a checkpoint no trusted witness cosigned: \(unmet.stderr)")
    let kept = audited.files.path + "/cosigned.checkpoint"
    try (try audited.store.run(["checkpoint", "show"])).stdout.write(toFile: kept, atomically: true, encoding: .utf8)
    let independent = try TlogOracle.run(["check-note", kept, audited.verifier, witnessVerifier])
    #expect(independent.status == 0, "the cosignature checked by cryptography: \(independent.stderr)")
    #expect(independent.stdout.contains("cosignedAt"))
    let since = try audited.store.run([
      "audit", "verify", "--since", kept, "--key", audited.verifier, "--witness", witnessVerifier,
    ])
    #expect(since.status == 0, "\(since.stderr)")
    // The witness refuses a rewritten log: its checkpoint is not consistent with what it cosigned.
    try LogRewriter.rewrite(audited.store.directory.storePath) { entries in entries.removeLast(2) }
    try audited.store.run(["log", "annotate", "after the rewrite"])
    let forked = try audited.store.run(["checkpoint", "sign", "--key", audited.key, "--witness", url])
    #expect(forked.status == 69, "\(forked.stderr)")
  }
}
