import KalendsTestSupport
import Testing

@testable import Kalends

/// The witness of C2SP tlog-witness, in process on a real LMDB environment: what it cosigns and
/// every way it must refuse.
@Suite("A witness cosigns only consistent checkpoints")
struct WitnessTests {
  struct Setup {
    let directory = TemporaryDirectory("witness")
    let log: CheckpointSigner
    let witnessKey: CheckpointSigner
    let store: Store
    let witness: Witness

    init() throws {
      store = try Store.create(at: directory.path + "/store", options: StoreOptions(durability: .noSync))
      log = try CheckpointSigner.generate(name: store.origin)
      witnessKey = try CheckpointSigner.generate(name: "witness.example/w1", isCosigner: true)
      witness = try Witness(path: directory.path + "/witness", signer: witnessKey, logs: [log.verifier])
      try store.annotate(contentsOf: (0..<9).map { "note \($0)" })
    }

    /// The `add-checkpoint` body for the kept checkpoint `note`, from `old`.
    func request(old: UInt64, _ note: SignedNote, proof: [RecordHash]? = nil) throws -> String {
      let size = try Checkpoint(parsing: note.text).treeHead.size
      let path = try proof ?? store.consistencyProof(from: old, to: size).path
      return "old \(old)\n" + path.map { $0.base64 + "\n" }.joined() + "\n" + note.description
    }
  }

  @Test func aConsistentCheckpointIsCosignedAndRemembered() throws {
    let setup = try Setup()
    let first = try setup.store.checkpoint(signer: setup.log)
    let answer = setup.witness.addCheckpoint(try setup.request(old: 0, first))
    #expect(answer.status == 200, "\(answer.body)")
    let cosigned = first.adding(try #require(try NoteSignature.parseLines(answer.body).first))
    try cosigned.verify(by: setup.witnessKey.verifier)
    try cosigned.verifyCosignatures(by: [setup.witnessKey.verifier], quorum: 1)
    #expect(try setup.witness.latest(origin: setup.store.origin)?.treeHead.size == 10)
    try setup.store.annotate("more")
    let second = try setup.store.checkpoint(signer: setup.log)
    #expect(setup.witness.addCheckpoint(try setup.request(old: 10, second)).status == 200)
    #expect(try setup.witness.latest(origin: setup.store.origin)?.treeHead.size == 11)
  }

  @Test func theWitnessRefusesWhatItMustRefuse() throws {
    let setup = try Setup()
    let first = try setup.store.checkpoint(signer: setup.log)
    #expect(setup.witness.addCheckpoint(try setup.request(old: 0, first)).status == 200)
    try setup.store.annotate("more")
    let second = try setup.store.checkpoint(signer: setup.log)

    // The old size is not the one the witness knows: 409 and the size it knows.
    let stale = setup.witness.addCheckpoint(try setup.request(old: 0, second))
    #expect(stale.status == 409)
    #expect(stale.contentType == "text/x.tlog.size")
    #expect(stale.body == "10\n")

    // A bad consistency proof: 422, and nothing recorded.
    var proof = try setup.store.consistencyProof(from: 10, to: 11).path
    proof[0] = MerkleTree.emptyRoot
    #expect(setup.witness.addCheckpoint(try setup.request(old: 10, second, proof: proof)).status == 422)
    #expect(try setup.witness.latest(origin: setup.store.origin)?.treeHead.size == 10)

    // A fork: another root for the size already cosigned, signed by the log's key.
    let forkText = Checkpoint(origin: setup.store.origin, treeHead: TreeHead(size: 10, root: MerkleTree.emptyRoot)).text
    let fork = SignedNote(text: forkText, signatures: [setup.log.signature(of: Array(forkText.utf8))])
    #expect(setup.witness.addCheckpoint(try setup.request(old: 10, fork, proof: [])).status == 409)

    // A smaller tree than the one cosigned.
    #expect(
      setup.witness.addCheckpoint(try setup.request(old: 10, first, proof: [])).status == 200, "the same tree again")
    let smallerText = Checkpoint(origin: setup.store.origin, treeHead: try setup.store.treeHead(size: 5)).text
    let smaller = SignedNote(text: smallerText, signatures: [setup.log.signature(of: Array(smallerText.utf8))])
    #expect(setup.witness.addCheckpoint(try setup.request(old: 10, smaller, proof: [])).status == 400)
    #expect(setup.witness.addCheckpoint(try setup.request(old: 0, smaller, proof: [])).status == 409)

    // Signed by a key the witness does not trust for that origin: 403; an unknown log: 404.
    let stranger = try CheckpointSigner.generate(name: setup.store.origin)
    let forged = SignedNote(text: second.text, signatures: [stranger.signature(of: Array(second.text.utf8))])
    #expect(setup.witness.addCheckpoint(try setup.request(old: 10, forged)).status == 403)
    let otherText = Checkpoint(origin: "kalends/another", treeHead: try setup.store.treeHead()).text
    let other = try CheckpointSigner.generate(name: "kalends/another")
    let unknown = SignedNote(text: otherText, signatures: [other.signature(of: Array(otherText.utf8))])
    #expect(setup.witness.addCheckpoint(try setup.request(old: 0, unknown, proof: [])).status == 404)
    #expect(setup.witness.addCheckpoint("old x\n\n" + second.description).status == 400)
    #expect(try setup.witness.latest(origin: setup.store.origin)?.treeHead.size == 10, "no refusal moved it")
  }

  @Test func aWitnessCosignsOnlyWithACosignerKey() throws {
    let directory = TemporaryDirectory("witness")
    let plain = try CheckpointSigner.generate(name: "witness.example/w1")
    #expect(throws: StoreError.self) { try Witness(path: directory.path, signer: plain, logs: [plain.verifier]) }
  }
}
