package import Kalends

/// A mirror's verdict on one store, as it publishes it in the organisation's bucket of verdicts
/// (`KAL_ORG_verdicts`, key `STORE.MIRROR`): how many of the store's records it holds and verified,
/// the hash of the last, whether it flagged the store, how many alerts it raised about it, and the
/// store's latest checkpoint it verified — with, when the mirror has a key, its cosignature (C2SP
/// tlog-mirror: a mirror cosigns a checkpoint once it holds and verified every record the tree
/// commits to). Text, one field per line, then a blank line and the cosigned note:
///
///     kalends-fleet-verdict 1
///     store STORE-ID
///     mirror NAME
///     verified SIZE HEAD-HEX
///     standing verified|flagged
///     alerts N
///
///     the store's signed checkpoint, its witnesses' and the mirror's cosignatures (or nothing)
package struct FleetVerdict: Hashable, Sendable {
  package let store: StoreID
  /// The mirror's name: its durable consumer's.
  package let mirror: String
  package let verifiedSize: UInt64
  package let head: RecordHash
  package let flagged: Bool
  package let alerts: Int
  /// The store's latest verified checkpoint, cosigned by the mirror when it has a key.
  package let checkpoint: SignedNote?

  package init(
    store: StoreID, mirror: String, verifiedSize: UInt64, head: RecordHash, flagged: Bool, alerts: Int,
    checkpoint: SignedNote?
  ) {
    self.store = store
    self.mirror = mirror
    self.verifiedSize = verifiedSize
    self.head = head
    self.flagged = flagged
    self.alerts = alerts
    self.checkpoint = checkpoint
  }

  private static let tag = "kalends-fleet-verdict 1"

  /// The key of the verdict in the bucket: the store's id and the mirror's name.
  package var key: String { "\(store).\(mirror)" }

  package var bytes: [UInt8] {
    NoteEnvelope.bytes(
      head: [
        Self.tag, "store \(store)", "mirror \(mirror)", "verified \(verifiedSize) \(head.hex)",
        "standing \(flagged ? "flagged" : "verified")", "alerts \(alerts)",
      ], note: checkpoint)
  }

  /// The verdict with `signer`'s cosignature added to the checkpoint (none without one).
  package func cosigned(by signer: CheckpointSigner) -> FleetVerdict {
    FleetVerdict(
      store: store, mirror: mirror, verifiedSize: verifiedSize, head: head, flagged: flagged, alerts: alerts,
      checkpoint: checkpoint.map { $0.adding(signer.signature(of: Array($0.text.utf8))) })
  }

  /// Why bytes are no verdict.
  package struct Malformed: Error, Sendable, CustomStringConvertible {
    package let description: String
  }

  package init(bytes: [UInt8]) throws(Malformed) {
    guard let (lines, note) = NoteEnvelope.split(bytes) else { throw Malformed(description: "no blank line") }
    func field(_ index: Int, _ name: String) throws(Malformed) -> [Substring] {
      guard index < lines.count, lines[index].hasPrefix(name + " ") else {
        throw Malformed(description: "line \(index + 1) is not \(name)")
      }
      return lines[index].dropFirst(name.count + 1).split(separator: " ")
    }
    guard lines.count == 6, lines[0] == Self.tag else { throw Malformed(description: "not a verdict of this version") }
    let verified = try field(3, "verified")
    guard let store = StoreID(uuid: String(try field(1, "store").first ?? "")),
      let mirror = try field(2, "mirror").first, verified.count == 2, let size = UInt64(verified[0]),
      let head = RecordHash(hex: String(verified[1])), let alerts = Int(try field(5, "alerts").first ?? "")
    else { throw Malformed(description: "a field does not parse") }
    let standing = try field(4, "standing").first
    guard standing == "verified" || standing == "flagged" else { throw Malformed(description: "unknown standing") }
    do {
      checkpoint = note.isEmpty ? nil : try SignedNote(parsing: String(note))
    } catch {
      throw Malformed(description: "the checkpoint: \(error)")
    }
    (self.store, self.mirror, verifiedSize, self.head, flagged, self.alerts) =
      (store, String(mirror), size, head, standing == "flagged", alerts)
  }
}
