internal import LMDB

extension Store {
  /// How many entries one transaction of a bulk load writes: a transaction's list of dirty pages
  /// stays short (LMDB keeps it sorted), and its progress is committed.
  static let bulkLoadChunk = 250_000

  /// Rebuilds every projection that starts from nothing (new, of another version, or emptied by a
  /// rebuild) and has a bulk loader: one write transaction empties them, marks them as loading
  /// (version 0, so an interrupted load starts over at the next open) and reads the log up to the
  /// head once into the loaders; each loader then writes its databases in key order, in chunks of
  /// ``bulkLoadChunk`` entries, the last of which saves its checkpoint. Returns the records read
  /// (0 when no projection needed it); the caller catches up the others record by record.
  func bulkLoadProjections(
    _ projections: ProjectionSet, progress: ((Int, LogPosition) -> Void)?
  ) throws -> Int {
    var loading: [(any Projection, any ProjectionBulkLoader)] = []
    let head = try environment.write { txn in
      loading = []
      let head = try Self.loadHead(meta: meta, in: txn)
      for projection in projections.projections {
        let kind = type(of: projection)
        let checkpoint = try ProjectionCheckpoint.load(kind.name, meta: meta, in: txn)
        let empty = checkpoint == nil || checkpoint!.version != kind.version || checkpoint!.position == .none
        guard empty, head.position > .none, let loader = projection.makeBulkLoader() else { continue }
        for database in projection.databases(from: projections.databases) { try txn.removeAll(in: database) }
        try ProjectionCheckpoint(version: 0, position: .none).save(kind.name, meta: meta, in: &txn)
        loading.append((projection, loader))
      }
      guard !loading.isEmpty else { return head }
      try txn.withCursor(on: log) { cursor in
        guard try cursor.first() else { return }
        var principals = PrincipalCache()
        try cursor.scanForward { _, value in
          let decoded = try RecordCodec.decodeHeader(value, principals: &principals)
          let header = decoded.header
          guard header.position <= head.position else { return .stop }
          for index in loading.indices where type(of: loading[index].0).kinds.contains(header.kind) {
            try loading[index].1.apply(header, payload: value.extracting(decoded.payload))
          }
          if header.position.rawValue % UInt64(Self.replayChunk) == 0 {
            progress?(Int(header.position.rawValue), head.position)
          }
          return .continue
        }
      }
      return head
    }
    guard !loading.isEmpty else { return 0 }
    for index in loading.indices {
      try loading[index].1.prepare()
      let kind = type(of: loading[index].0)
      var done = false
      while !done {
        let before = loading[index].1
        try environment.write { txn in
          loading[index].1 = before
          done = try loading[index].1.write(in: &txn, limit: Self.bulkLoadChunk)
          if done {
            try ProjectionCheckpoint(version: kind.version, position: head.position).save(
              kind.name, meta: meta, in: &txn)
          }
        }
      }
    }
    progress?(Int(head.position.rawValue), head.position)
    return Int(head.position.rawValue)
  }
}
