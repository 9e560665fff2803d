internal import Foundation
internal import LMDB

extension Store {
  /// Rebuilds every projection from the log into scratch databases (a temporary LMDB environment,
  /// removed afterwards) and compares their digests with the live ones, both at the same head.
  /// The live store is only read. `progress` is called after each chunk with the records applied
  /// and the head. A live database that is missing (never built, or its name in LMDB's catalog
  /// damaged) counts as divergent.
  public func verifyProjections(
    progress: ((Int, LogPosition) -> Void)? = nil
  ) throws(StoreError) -> ProjectionVerification {
    let directory = NSTemporaryDirectory() + "kalends-verify-\(StoreID.random())"
    return try StoreError.wrapping {
      try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
      defer { try? FileManager.default.removeItem(atPath: directory) }
      let scratch = try Environment(
        path: directory, options: EnvironmentOptions(maxDatabases: 64, durability: .noSync))
      let rebuilt = try scratch.write { txn in try ProjectionSet.open(in: &txn) }
      return try environment.read { txn in
        let head = try Self.loadHead(meta: meta, in: txn)
        let live = try Self.digests(of: projectionSet?.databases ?? ProjectionSet.existingDatabases(in: txn), in: txn)
        var next = LogPosition(1)
        while next <= head.position {
          var chunk: [(LogRecordHeader, [UInt8])] = []
          try txn.withCursor(on: log) { cursor in
            guard try cursor.seek(atLeast: BigEndianKey(next.rawValue)) else { return }
            var principals = PrincipalCache()
            _ = try cursor.scanForward { key, value in
              let decoded = try RecordCodec.decodeHeader(value, principals: &principals)
              guard decoded.header.position <= head.position else { return .stop }
              chunk.append((decoded.header, Array(copying: value.extracting(decoded.payload))))
              return chunk.count < Self.replayChunk ? .continue : .stop
            }
          }
          guard let last = chunk.last?.0.position else { break }
          try scratch.write { scratchTxn in
            for (header, payload) in chunk { try rebuilt.replay(header, payload: payload.span.bytes, in: &scratchTxn) }
          }
          progress?(Int(last.rawValue), head.position)
          next = last.next
        }
        let rebuiltDigests = try scratch.read { scratchTxn in
          try Self.digests(of: rebuilt.databases, in: scratchTxn)
        }
        return ProjectionVerification(position: head.position, live: live, rebuilt: rebuiltDigests)
      }
    }
  }
}

/// The result of ``Store/verifyProjections(progress:)``.
public struct ProjectionVerification: Sendable, Hashable {
  /// The head both sides were compared at.
  public let position: LogPosition
  /// The digests of the live projection databases, by name.
  public let live: [String: ProjectionDigest]
  /// The digests of the same databases rebuilt from the log.
  public let rebuilt: [String: ProjectionDigest]

  /// The databases whose live contents differ from a rebuild's, sorted.
  public var divergent: [String] { Set(live.keys).union(rebuilt.keys).filter { live[$0] != rebuilt[$0] }.sorted() }

  /// Whether every projection equals a rebuild from the log.
  public var isConsistent: Bool { divergent.isEmpty }
}
