import Foundation
package import Kalends
internal import LMDB

extension FleetMirror {
  /// A problem the mirror found, with its evidence.
  package struct Alert: Sendable, Hashable {
    package enum Kind: String, Sendable {
      /// A bundle skipped positions: records are missing from the stream.
      case gap
      /// Other bytes for a position the mirror holds: the store's log was rewritten, forked or cloned.
      case fork
      /// A record broke a rule of the log (`IntegrityProblem`).
      case integrity
      /// A message that is no bundle of the store its subject names.
      case malformed
      /// A checkpoint that was not accepted: no key enrolled, not signed by the enrolled key, short
      /// of the witness quorum, or a signed root other than the records'.
      case checkpoint
      /// The store's records run more than the organisation allows past its last verified
      /// checkpoint: it stopped checkpointing (or its checkpoints do not reach the mirror).
      case stale
      /// The store signed a checkpoint of more records than the stream gave: records withheld, by
      /// the store or on the way; the mirror asks for them again.
      case withheld
    }
    package let kind: Kind
    package let store: StoreID?
    package let position: LogPosition
    package let detail: String
    /// The stream sequence of the message that showed it.
    package let message: UInt64
    /// Whether it flags the store: nothing more is taken of it.
    package let flags: Bool
    /// The message that showed it, as it came (empty when it is not kept): a bundle, or the
    /// checkpoint message whose signed note disagrees with the records held.
    package var evidence: [UInt8] = []

    /// The signed note of the evidence, when it is a checkpoint message.
    package var note: SignedNote? { (try? CheckpointMessage(bytes: evidence))?.note }

    /// The store's state byte once this alert flags it (`MirrorFiles.stores`): 2 when two logs of
    /// the store disagree (a fork, a checkpoint over other records), so that records past its last
    /// verified checkpoint may be a forged branch; 1 for any other flag.
    var flagState: UInt8 { kind == .fork || kind == .checkpoint ? 2 : 1 }

    init(kind: Kind, store: StoreID?, position: LogPosition, detail: String, message: UInt64, flags: Bool? = nil) {
      self.kind = kind
      self.store = store
      self.position = position
      self.detail = detail
      self.message = message
      self.flags = flags ?? (kind == .fork || kind == .integrity)
    }
  }

  /// Every alert raised, oldest first.
  package func alertList() throws -> [Alert] {
    try environment.read { txn in
      var found: [Alert] = []
      try txn.withCursor(on: alerts) { cursor in
        try cursor.forEach(withPrefix: []) { _, value in
          if let alert = Self.alert(Array(copying: value)) { found.append(alert) }
        }
      }
      return found
    }
  }

  /// Records `alert` for a message the mirror takes nothing of, flagging its store when it flags;
  /// nothing to ask for again.
  func raise(_ alert: Alert, evidence: [UInt8] = []) throws -> (StoreID, LogPosition)? {
    try environment.write { txn in
      if alert.flags, let store = alert.store { try txn.put([alert.flagState], forKey: store.bytes, in: stores) }
      try Self.put(alert, evidence: evidence, in: &txn, alerts)
    }
    if alert.flags, let store = alert.store { flagged.insert(store) }
    return nil
  }

  static func put(_ alert: Alert, evidence: [UInt8], in txn: inout WriteTransaction, _ alerts: Database) throws {
    let last = try txn.withCursor(on: alerts) { cursor in
      try cursor.last() ? BigEndianBytes.value(try cursor.currentKey()) : 0
    }
    let fields = [
      alert.kind.rawValue, alert.store?.description ?? "", String(alert.position.rawValue), String(alert.message),
      alert.flags ? "1" : "0", alert.detail,
    ]
    var value = Array(fields.joined(separator: "\u{1F}").utf8)
    value += [0] + evidence
    try txn.put(value, forKey: BigEndianBytes.of(last + 1), in: alerts)
  }

  static func alert(_ value: [UInt8]) -> Alert? {
    let parts = value.split(separator: 0, maxSplits: 1, omittingEmptySubsequences: false)
    let text = parts.first ?? []
    let fields = String(decoding: text, as: UTF8.self).split(separator: "\u{1F}", omittingEmptySubsequences: false)
    guard fields.count == 6, let kind = Alert.Kind(rawValue: String(fields[0])),
      let position = UInt64(fields[2]), let message = UInt64(fields[3])
    else { return nil }
    var alert = Alert(
      kind: kind, store: StoreID(uuid: String(fields[1])), position: LogPosition(position), detail: String(fields[5]),
      message: message, flags: fields[4] == "1")
    if parts.count == 2 { alert.evidence = Array(parts[1]) }
    return alert
  }
}
