import Foundation
import Testing

@testable import Kalends

/// Known answers of other implementations, carried over as data: Go's golang.org/x/mod/sumdb/note
/// tests (a private key, its verifier key and the note it signs, Ed25519 being deterministic) and
/// the example of the C2SP signed-note specification.
enum NoteVectors {
  static let goSigner = "PRIVATE+KEY+PeterNeumann+c74f20a3+AYEKFALVFGyNhPJEMzD1QIDr+Y7hfZx09iUvxdXHKDFz"
  static let goVerifier = "PeterNeumann+c74f20a3+ARpc2QcUPDhMQegwxbzhKqiBfsVkmqq/LDE4izWy10TW"
  static let goText =
    "If you think cryptography is the answer to your problem,\nthen you don't know what your problem is.\n"
  static let goNote =
    goText
    + "\n\u{2014} PeterNeumann x08go/ZJkuBS9UG/SffcvIAQxVBtiFupLLr8pAcElZInNIuGUgYN1FFYC2pZSNXgKvqfqdngotpRZb6KE6RyyBwJnAM=\n"
  static let specVerifier = "example.com/foo+530d903a+AekyeRrm56hApGFkyQR4ZCbV54Id2LKaANYcrnKv3U2k"
  static let specNote =
    "This is an example message.\n\n\u{2014} example.com/foo Uw2QOkn8srV1yJGh2VYRlL1Tnagv1YEq6TfXppzi2ONncAlTgK7Ztg1ERYNZXsYjOBH3mFXmRKuwHjG1Yu72IneyaQM=\n"
  /// A verifier key whose base64 holds a `+` (transparency-dev/formats' tests).
  static let plusVerifier = "TEST+7997405c+AQcC+FTVKf0jlTdHDY3rbevmnKxxPjigCXlVtGe6RIr6"
}

@Suite("Signed notes and checkpoints (C2SP)")
struct CheckpointTests {
  @Test func goSignsAndVerifiesAsWeDo() throws {
    let signer = try CheckpointSigner(encoded: NoteVectors.goSigner)
    #expect(signer.verifier.description == NoteVectors.goVerifier)
    #expect(signer.encoded == NoteVectors.goSigner)
    let signature = signer.signature(of: Array(NoteVectors.goText.utf8))
    let note = SignedNote(text: NoteVectors.goText, signatures: [signature])
    #expect(note.description == NoteVectors.goNote, "Ed25519 is deterministic: the same note byte for byte")
    try SignedNote(parsing: NoteVectors.goNote).verify(by: try NoteVerifier(NoteVectors.goVerifier))
  }

  @Test func theSpecificationsExampleVerifies() throws {
    let note = try SignedNote(parsing: NoteVectors.specNote)
    #expect(note.text == "This is an example message.\n")
    try note.verify(by: try NoteVerifier(NoteVectors.specVerifier))
    #expect(throws: NoteError.self) { try note.verify(by: try NoteVerifier(NoteVectors.goVerifier)) }
  }

  @Test func verifierKeysAreParsedStrictly() throws {
    #expect(try NoteVerifier(NoteVectors.plusVerifier).name == "TEST")
    let key = NoteVectors.goVerifier
    // Every proper substring of a key is refused, as Go's tests require.
    let characters = Array(key)
    for start in characters.indices {
      for end in (start + 1)...characters.count where start != 0 || end != characters.count {
        #expect(throws: NoteError.self) { try NoteVerifier(String(characters[start..<end])) }
      }
    }
    #expect(throws: NoteError.self) { try NoteVerifier(key.replacingOccurrences(of: "c74f20a3", with: "c74f20a4")) }
  }

  @Test func alteredNotesFail() throws {
    let verifier = try NoteVerifier(NoteVectors.goVerifier)
    var bytes = Array(NoteVectors.goNote.utf8)
    for index in bytes.indices {
      bytes[index] ^= 0x01
      let altered = String(decoding: bytes, as: UTF8.self)
      #expect(throws: NoteError.self, "byte \(index)") { try SignedNote(parsing: altered).verify(by: verifier) }
      bytes[index] ^= 0x01
    }
  }

  /// 68 signature bytes end in a base64 quantum of two bytes whose last character carries two
  /// unused bits: "…nAM=" and "…nAN=" decode alike under a lenient decoder. A note is one text.
  @Test func aSignatureInNonCanonicalBase64IsRefused() throws {
    let altered = NoteVectors.goNote.replacingOccurrences(of: "nAM=", with: "nAN=")
    #expect(altered != NoteVectors.goNote)
    #expect(throws: NoteError.self) { try SignedNote(parsing: altered) }
  }

  @Test func aCheckpointBodyIsOriginSizeAndRoot() throws {
    let head = TreeHead(size: 20_852_163, root: ReferenceTree.roots[7])
    let checkpoint = Checkpoint(origin: "example.com/behind-the-sofa", treeHead: head)
    #expect(checkpoint.text == "example.com/behind-the-sofa\n20852163\nXcnaeacGWamtVZy3Ad7ZoqudgjqtL0lgz+Nw7/RgQyg=\n")
    #expect(try Checkpoint(parsing: checkpoint.text) == checkpoint)
    for bad in ["o\n012\nXcnaeacGWamtVZy3Ad7ZoqudgjqtL0lgz+Nw7/RgQyg=\n", "o\n12\nAAAA\n", "o\n12\n", "\n1\nAAAA\n"] {
      #expect(throws: NoteError.self, "\(bad)") { try Checkpoint(parsing: bad) }
    }
  }

  @Test func aStoreSignsOneCheckpointPerCommitAndKeepsThem() throws {
    let signer = try CheckpointSigner.generate(name: "test.example/log")
    try withStore(StoreOptions(durability: .noSync, checkpointSigner: signer)) { store, _ in
      try store.annotate(contentsOf: (0..<10).map { "note \($0)" })
      try store.annotate("one more")
      #expect(try store.checkpointSizes() == [1, 11, 12], "creation is not signed; each commit after it is")
      let latest = try #require(try store.latestCheckpoint())
      let checkpoint = try Checkpoint.verified(latest, by: signer.verifier, origin: store.origin)
      #expect(checkpoint.treeHead == (try store.treeHead()))
      #expect(try store.checkpoint(signer: signer) == latest, "the head is already signed by this key")
      let second = try CheckpointSigner.generate(name: "witness.example/w1")
      let both = try store.checkpoint(signer: second)
      #expect(both.signatures.count == 2, "another key's signature joins the same checkpoint")
      try both.verify(by: signer.verifier)
      try both.verify(by: second.verifier)
    }
  }
}
