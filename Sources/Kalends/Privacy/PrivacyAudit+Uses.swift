internal import LMDB

extension PrivacyAudit {
  /// The reads of apps the log records (`dataRead`), one ``AccessUse`` per app, service, operation
  /// and minute, by minute, then app, service and operation; filtered by app, service, an object
  /// the reads touched (a calendar, a chosen contact) and time (intervals that start at or after
  /// `since` and before `until`). Found through the permission projection's index of each app's
  /// records, without scanning the log.
  ///
  /// The log holds the first read of an interval, and of each calendar in it, before the app got
  /// its answer; the count of the interval's other reads joins it within seconds of the minute's
  /// end (docs/privacy.md, "What apps read").
  public func uses(
    client: String? = nil, service: Service? = nil, object: ObjectID? = nil, since: Timestamp? = nil,
    until: Timestamp? = nil
  ) throws(StoreError) -> [AccessUse] {
    let permissions = try store.projection(PermissionProjection.self)
    let log = store.log
    let kind = Array(withUnsafeBytes(of: RecordKind.dataRead.rawValue.bigEndian) { Array($0) })
    return try StoreError.wrapping {
      try store.environment.read { txn in
        var positions: [UInt64] = []
        try txn.withCursor(on: permissions.history) { cursor in
          let prefix: [UInt8] = client.map { Array($0.utf8) + [0] } ?? []
          try cursor.forEach(withPrefix: prefix) { key, value in
            guard value.byteCount == 2, Array(copying: value) == kind, key.count >= 9 else { return }
            positions.append(RecordCodec.readBigEndian(key[(key.count - 8)...]))
          }
        }
        positions.sort()
        var intervals: [UseKey: AccessUse] = [:]
        for position in positions {
          _ = try txn.withValue(forKey: BigEndianKey(position), in: log) { value in
            var principals = PrincipalCache()
            let decoded = try RecordCodec.decodeHeader(value, principals: &principals)
            let fields = try PayloadReader(bytes: value.extracting(decoded.payload))
            let identification = try decoded.context.map { range throws(StoreError) in
              try CallerEvidence(context: value.extracting(range))
            }
            guard let use = try Self.use(LogPosition(position), fields, identification) else { return }
            if let service, use.service != service { return }
            if let object, !use.objects.contains(object) { return }
            guard use.starts(since: since, until: until) else { return }
            let key = UseKey(client: use.client, service: use.service, operation: use.operation, minute: use.minute)
            guard var merged = intervals[key] else {
              intervals[key] = use
              return
            }
            merged.count += use.count
            merged.objects = Array(Set(merged.objects).union(use.objects)).sorted()
            merged.status = use.status
            merged.decision = use.decision
            merged.identification = use.identification ?? merged.identification
            merged.positions += use.positions
            intervals[key] = merged
          }
        }
        return intervals.values.sorted {
          ($0.minute, $0.client, $0.service.rawValue, $0.operation)
            < ($1.minute, $1.client, $1.service.rawValue, $1.operation)
        }
      }
    }
  }

  private struct UseKey: Hashable {
    let client: String
    let service: Service
    let operation: String
    let minute: Int64
  }

  /// The interval a `dataRead` record states; `nil` for a service this version does not know.
  private static func use(
    _ position: LogPosition, _ fields: PayloadReader, _ identification: CallerEvidence?
  ) throws(StoreError) -> AccessUse? {
    guard let service = try fields.unsigned(2).flatMap({ Service(rawValue: UInt8(truncatingIfNeeded: $0)) }),
      let status = try fields.unsigned(3).flatMap({ AuthorizationStatus(rawValue: UInt8(truncatingIfNeeded: $0)) })
    else { return nil }
    return AccessUse(
      client: try fields.requiredString(1), service: service, operation: try fields.string(4) ?? "",
      minute: try fields.signed(6) ?? 0, count: Int(clamping: try fields.unsigned(5) ?? 0),
      objects: try fields.objectIDs(7), status: status, decision: try fields.unsigned(8).map { LogPosition($0) },
      identification: identification, positions: [position])
  }
}
