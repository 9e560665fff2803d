internal import LMDB

extension PrivacyAudit {
  /// The callers the store server refused as unidentified, oldest first, in the window (`since`
  /// inclusive, `until` exclusive). Reads the whole log (one snapshot): such records name no app,
  /// so no per-app index finds them.
  public func unidentifiedCallers(
    since: Timestamp? = nil, until: Timestamp? = nil
  ) throws(StoreError) -> [UnidentifiedCaller] {
    try StoreError.wrapping {
      try store.environment.read { txn in
        var callers: [UnidentifiedCaller] = []
        var principals = PrincipalCache()
        try forEachRecord(txn) { value in
          let decoded = try RecordCodec.decodeHeader(value, principals: &principals)
          let header = decoded.header
          guard header.kind == .callerUnidentified else { return }
          if let since, header.timestamp < since { return }
          if let until, header.timestamp >= until { return }
          let fields = try PayloadReader(bytes: value.extracting(decoded.payload))
          callers.append(
            UnidentifiedCaller(
              position: header.position, timestamp: header.timestamp, evidence: try Self.evidence(fields),
              count: Int(clamping: try fields.unsigned(7) ?? 1)))
        }
        return callers
      }
    }
  }

  /// The evidence a `callerUnidentified` record holds.
  private static func evidence(_ fields: PayloadReader) throws(StoreError) -> CallerEvidence {
    if let uid = try fields.unsigned(1) {
      return CallerEvidence(
        uid: UInt32(truncatingIfNeeded: uid), gid: UInt32(truncatingIfNeeded: try fields.unsigned(2) ?? 0),
        pid: Int32(bitPattern: UInt32(truncatingIfNeeded: try fields.unsigned(3) ?? 0)),
        executable: try fields.string(4), executableSHA256: fields.bytes(5), flatpakApp: try fields.string(6))
    }
    return CallerEvidence(address: try fields.string(9) ?? "", tokenID: try fields.string(10))
  }
}
