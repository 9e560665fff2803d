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
      // As large a map as the store's pages, which hold the projections and the log: the loaders
      // write from two threads, and a map grown under them waits for the other's transaction.
      let pages = try environment.info()
      let scratch = try Environment(
        path: directory,
        options: EnvironmentOptions(
          mapSize: max(64 << 20, (pages.lastPageNumber + 1) * 4_096), maxDatabases: 64, durability: .noSync))
      let (rebuilt, scratchMeta) = try scratch.write { txn in
        (try ProjectionSet.open(in: &txn), try txn.openDatabase(named: MetaKey.metaDatabase))
      }
      // The live digests at a head, in one snapshot; the log up to that head never changes, so the
      // rebuild reads it in snapshots of its own.
      let (head, live) = try environment.read { txn in
        let head = try Self.loadHead(meta: meta, in: txn)
        return (
          head, try Self.digests(of: projectionSet?.databases ?? ProjectionSet.existingDatabases(in: txn), in: txn)
        )
      }
      if head.position > .none {
        // The rebuild's bulk loaders, into the scratch databases, as `rebuild` loads them.
        let loading = rebuilt.projections.map { projection in
          (projection, projection.makeBulkLoader() ?? ReplayLoader(projection, log: log, source: environment))
        }
        try bulkLoad(loading, upTo: head, into: scratch, meta: scratchMeta) { state in
          if case .reading(let done, _) = state { progress?(done, head.position) }
        }
      }
      let rebuiltDigests = try scratch.read { txn in try Self.digests(of: rebuilt.databases, in: txn) }
      return ProjectionVerification(position: head.position, live: live, rebuilt: rebuiltDigests)
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
