/// Everything about a record but its payload: cheap to decode, no payload copy.
public struct LogRecordHeader: Hashable, Sendable {
  /// The record format version it was written in (upcast on read; see docs/log-format.md).
  public let formatVersion: UInt8
  /// Its position in the log.
  public let position: LogPosition
  /// When it was appended (wall clock of the writer).
  public let timestamp: Timestamp
  /// Who caused it.
  public let principal: Principal
  /// What it states.
  public let kind: RecordKind
  /// The hash of the record before it (``RecordHash/genesis`` for the first).
  public let previousHash: RecordHash
  /// Its own hash: `SHA-256(0x00 ‖ record bytes before the hash)`, which covers `previousHash`;
  /// for a record whose content can be erased (format version 3), the bytes of its erased form.
  public let hash: RecordHash
  /// Whether the record still holds its content, or the content was erased
  /// (``PrivacySettings/erase(_:reason:)``).
  public var content: RecordContent = .present
}

/// What is left of a record's content (docs/log-format.md, format version 3).
public enum RecordContent: Hashable, Sendable {
  /// The record is as written.
  case present
  /// The content was erased; its salted commitment is kept, so the record's hash, its inclusion
  /// proofs and every checkpoint stay verifiable, and its header (time, actor, kind) and kept
  /// fields are still proven by them.
  case erased
  /// The content of a record written before format version 3 was erased: its hash is kept, so the
  /// chain, the tree and every other record's proofs stay valid, but nothing left in it can be
  /// checked against that hash.
  case erasedUnverifiable
}

/// One fact of the log, decoded and owned.
public struct LogRecord: Hashable, Sendable {
  /// Position, time, principal, kind and hashes.
  public let header: LogRecordHeader
  /// The kind-specific content, encoded (docs/log-format.md).
  package let payload: Payload
  /// How the actor was identified, for a record written through the store server (format
  /// version 2); `nil` otherwise: a `client` actor without it was declared by its writer (`--as`),
  /// not identified.
  public let identification: CallerEvidence?

  package init(header: LogRecordHeader, payload: Payload, identification: CallerEvidence? = nil) {
    self.header = header
    self.payload = payload
    self.identification = identification
  }

  /// The kind-specific content, each field named and typed by the kind's schema
  /// (docs/log-format.md), in tag order: unknown tags are named `tagN` and given as bytes, and a
  /// repeated tag is a ``PayloadValue/list(_:)``.
  ///
  /// - Throws: ``StoreError/malformedPayload(_:)`` when the payload's bytes are not a valid
  ///   sequence of fields (a damaged record that `verify` also reports).
  public func fields() throws(StoreError) -> [NamedPayloadValue] {
    try payload.describe(fields: kind.schema?.fields ?? [])
  }

  /// Its position in the log.
  public var position: LogPosition { header.position }
  /// When it was appended.
  public var timestamp: Timestamp { header.timestamp }
  /// Who caused it.
  public var principal: Principal { header.principal }
  /// What it states.
  public var kind: RecordKind { header.kind }
  /// The hash of the record before it.
  public var previousHash: RecordHash { header.previousHash }
  /// Its own hash.
  public var hash: RecordHash { header.hash }
}

/// A record to append: the log assigns its position, time and hashes.
package struct RecordDraft: Hashable, Sendable {
  /// What it states.
  package var kind: RecordKind
  /// Who causes it.
  package var principal: Principal
  /// The kind-specific content.
  package var payload: Payload
  /// How the actor was identified (the store server's sessions): written as the record's caller
  /// context.
  package var identification: CallerEvidence?

  /// A draft of `kind` by `principal` with `payload`.
  package init(kind: RecordKind, principal: Principal, payload: Payload = Payload()) {
    self.kind = kind
    self.principal = principal
    self.payload = payload
  }

  /// A note written into the log.
  package static func annotation(_ text: String, by principal: Principal = .person) -> RecordDraft {
    var payload = Payload()
    payload.append(tag: 1, string: text)
    return RecordDraft(kind: .annotationAdded, principal: principal, payload: payload)
  }
}
