import Foundation
package import Kalends

/// A store's signed checkpoint as the fleet's stream carries it, on `kal.ORG.STORE.ckpt` after the
/// records it covers: the signed note (C2SP signed-note, with its witnesses' cosignatures) and a
/// consistency proof (RFC 9162) from the checkpoint's tree to the tree of the records published
/// before it, so that a mirror holding those records checks the signed root against its own.
///
/// Text: `kalends-fleet-checkpoint 1` ‖ `\n` ‖ the published size ‖ `\n` ‖ each proof hash in base64
/// and `\n` ‖ `\n` ‖ the signed note.
package struct CheckpointMessage: Hashable, Sendable {
  package let note: SignedNote
  /// The size of the tree the proof leads to: the records published before the message.
  package let publishedSize: UInt64
  /// The proof from the checkpoint's size to `publishedSize`.
  package let proof: [RecordHash]

  package init(note: SignedNote, publishedSize: UInt64, proof: [RecordHash]) {
    self.note = note
    self.publishedSize = publishedSize
    self.proof = proof
  }

  private static let tag = "kalends-fleet-checkpoint 1"

  package var bytes: [UInt8] {
    NoteEnvelope.bytes(head: [Self.tag, String(publishedSize)] + proof.map(\.base64), note: note)
  }

  /// Why bytes are no checkpoint message.
  package struct Malformed: Error, Sendable, CustomStringConvertible {
    package let description: String
  }

  package init(bytes: [UInt8]) throws(Malformed) {
    guard let (head, text) = NoteEnvelope.split(bytes) else { throw Malformed(description: "no signed note") }
    guard head.count >= 2, head[0] == Self.tag, let size = UInt64(head[1]) else {
      throw Malformed(description: "not a checkpoint message of this version")
    }
    var proof: [RecordHash] = []
    for line in head.dropFirst(2) {
      guard let hash = RecordHash(base64: line) else { throw Malformed(description: "a proof hash is not base64") }
      proof.append(hash)
    }
    do {
      note = try SignedNote(parsing: String(text))
    } catch {
      throw Malformed(description: "the signed note: \(error)")
    }
    publishedSize = size
    self.proof = proof
  }
}
