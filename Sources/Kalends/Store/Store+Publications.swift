internal import LMDB

/// Where a store's records were last published to an organisation's stream (`kalends fleet push`,
/// or the publisher inside `kalends serve`): the position the stream holds, when it was reached, and
/// the size of the checkpoint published with it. Kept in the store's metadata beside the log, as the
/// alarms delivered are: publishing changes nothing of the store's content (no fact of the log), and
/// the stream itself holds the proof of what was published; `kalends status` shows it.
package struct Publication: Sendable, Hashable {
  /// The organisation (its stream is `KAL_ORG`).
  package let organisation: String
  /// The last position the stream holds of the store.
  package let position: LogPosition
  /// When the publisher last found the stream holding it.
  package let time: Timestamp
  /// The size of the latest checkpoint published, if any.
  package let checkpoint: UInt64?

  package init(organisation: String, position: LogPosition, time: Timestamp, checkpoint: UInt64?) {
    self.organisation = organisation
    self.position = position
    self.time = time
    self.checkpoint = checkpoint
  }
}

extension Store {
  private static let publicationPrefix = Array("fleet.published.".utf8)

  /// Keeps `publication` (replacing the organisation's previous one); a store opened read only
  /// fails with ``StoreError/readOnly``.
  package func recordPublication(_ publication: Publication) throws(StoreError) {
    guard !options.readOnly else { throw .readOnly }
    let meta = self.meta
    let value =
      Payload.bigEndianBytes(publication.position.rawValue)
      + Payload.bigEndianBytes(UInt64(bitPattern: publication.time.rawValue))
      + Payload.bigEndianBytes(publication.checkpoint ?? 0)
    try StoreError.wrapping {
      try environment.write { txn in
        try txn.put(value, forKey: Self.publicationPrefix + Array(publication.organisation.utf8), in: meta)
      }
    }
  }

  /// Every organisation the store was published to, by name.
  package func publications() throws(StoreError) -> [Publication] {
    let meta = self.meta
    return try StoreError.wrapping {
      try environment.read { txn in
        var found: [Publication] = []
        try txn.withCursor(on: meta) { cursor in
          try cursor.forEach(withPrefix: Self.publicationPrefix) { key, value in
            let bytes = Array(copying: value)
            guard bytes.count == 24 else { return }
            let checkpoint = RecordCodec.readBigEndian(bytes[16..<24])
            found.append(
              Publication(
                organisation: String(decoding: key.dropFirst(Self.publicationPrefix.count), as: UTF8.self),
                position: LogPosition(RecordCodec.readBigEndian(bytes[0..<8])),
                time: Timestamp(rawValue: Int64(bitPattern: RecordCodec.readBigEndian(bytes[8..<16]))),
                checkpoint: checkpoint == 0 ? nil : checkpoint))
          }
        }
        return found
      }
    }
  }

  private static let failurePrefix = Array("fleet.failed.".utf8)

  /// Keeps why the last push to `organisation` failed, and when (replacing the previous failure),
  /// so that `kalends status` can say it: a push that succeeds later is newer
  /// (``publications()``'s time), which makes this one history. A store opened read only fails
  /// with ``StoreError/readOnly``.
  package func recordPushFailure(_ organisation: String, reason: String, at time: Timestamp) throws(StoreError) {
    guard !options.readOnly else { throw .readOnly }
    let meta = self.meta
    let value = Payload.bigEndianBytes(UInt64(bitPattern: time.rawValue)) + Array(reason.utf8.prefix(4_096))
    try StoreError.wrapping {
      try environment.write { txn in
        try txn.put(value, forKey: Self.failurePrefix + Array(organisation.utf8), in: meta)
      }
    }
  }

  /// The last failed push to each organisation: when, and why.
  package func pushFailures() throws(StoreError) -> [String: (time: Timestamp, reason: String)] {
    let meta = self.meta
    return try StoreError.wrapping {
      try environment.read { txn in
        var found: [String: (time: Timestamp, reason: String)] = [:]
        try txn.withCursor(on: meta) { cursor in
          try cursor.forEach(withPrefix: Self.failurePrefix) { key, value in
            let bytes = Array(copying: value)
            guard bytes.count >= 8 else { return }
            let organisation = String(decoding: key.dropFirst(Self.failurePrefix.count), as: UTF8.self)
            found[organisation] = (
              Timestamp(rawValue: Int64(bitPattern: RecordCodec.readBigEndian(bytes[0..<8]))),
              String(decoding: bytes[8...], as: UTF8.self)
            )
          }
        }
        return found
      }
    }
  }
}
