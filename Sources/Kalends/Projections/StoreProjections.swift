internal import LMDB

extension Store {
  /// How many records one catch-up or rebuild transaction applies: bounded so that a rebuild of a
  /// large log never needs one huge transaction, and so that its progress survives an interruption.
  static let replayChunk = 20_000

  /// Brings every projection up to the head of the log: a projection that is new, or whose stored
  /// version differs from this Kalends', is emptied and rebuilt from position 1 in bulk
  /// (``bulkLoadProjections(_:progress:)``); one behind the head catches up record by record.
  /// Returns how many records were replayed.
  /// Called when a writable store is opened.
  @discardableResult
  func catchUpProjections(progress: ((RebuildProgress) -> Void)? = nil) throws(StoreError) -> Int {
    let projections = try projections
    return try StoreError.wrapping {
      let loaded = try bulkLoadProjections(projections, progress: progress)
      var applied = 0
      while true {
        let done: Bool = try environment.write { txn in
          let head = try Self.loadHead(meta: meta, in: txn)
          var behind: [(any Projection, LogPosition)] = []
          for projection in projections.projections {
            let kind = type(of: projection)
            let checkpoint = try ProjectionCheckpoint.load(kind.name, meta: meta, in: txn)
            if let checkpoint, checkpoint.version == kind.version {
              if checkpoint.position < head.position { behind.append((projection, checkpoint.position)) }
            } else {
              for database in projection.databases(from: projections.databases) {
                try txn.removeAll(in: database)
              }
              behind.append((projection, .none))
              try ProjectionCheckpoint(version: kind.version, position: .none).save(kind.name, meta: meta, in: &txn)
            }
          }
          guard let start = behind.map(\.1).min() else { return true }
          // Read a chunk, then apply it: a cursor on the log cannot stay open while the
          // transaction is written to.
          var chunk: [(LogRecordHeader, [UInt8])] = []
          try txn.withCursor(on: log) { cursor in
            guard try cursor.seek(atLeast: BigEndianKey(start.rawValue + 1)) else { return }
            var principals = PrincipalCache()
            try cursor.scanForward { _, value in
              let decoded = try RecordCodec.decodeHeader(value, principals: &principals)
              chunk.append((decoded.header, Array(copying: value.extracting(decoded.payload))))
              return chunk.count < Self.replayChunk ? .continue : .stop
            }
          }
          var last = start
          for (header, payload) in chunk {
            for (projection, checkpoint) in behind
            where checkpoint < header.position && type(of: projection).kinds.contains(header.kind) {
              try projection.replay(header, payload: payload.span.bytes, in: &txn)
            }
            last = header.position
          }
          for (projection, checkpoint) in behind where checkpoint < last {
            let kind = type(of: projection)
            try ProjectionCheckpoint(version: kind.version, position: last).save(kind.name, meta: meta, in: &txn)
          }
          applied += Int(last.rawValue - start.rawValue)
          progress?(.reading(done: Int(last.rawValue), total: Int(head.position.rawValue)))
          return last >= head.position
        }
        if done { return max(loaded, applied) }
      }
    }
  }

  /// Drops every projection and rebuilds it from the log, in chunks of committed transactions
  /// (an interrupted rebuild is finished the next time the store is opened), every projection
  /// loaded in bulk.
  /// `progress` is told how far it is: the records read, then the projections written (called from
  /// the rebuild's threads, one call at a time). Returns the records replayed.
  @discardableResult
  public func rebuildProjections(progress: ((RebuildProgress) -> Void)? = nil) throws(StoreError) -> Int {
    guard !options.readOnly else { throw .readOnly }
    let projections = try projections
    try StoreError.wrapping {
      try environment.write { txn in
        for database in projections.databases.values { try txn.removeAll(in: database) }
        for type in ProjectionSet.types {
          try ProjectionCheckpoint(version: type.version, position: .none).save(type.name, meta: meta, in: &txn)
        }
      }
    }
    return try catchUpProjections(progress: progress)
  }

  /// The store's projection of type `type`.
  func projection<P: Projection>(_ type: P.Type) throws(StoreError) -> P {
    guard let found = try projections.projections.lazy.compactMap({ $0 as? P }).first else {
      throw .projectionsUnavailable
    }
    return found
  }

  /// The checkpoint of every projection, by name.
  package func projectionCheckpoints() throws(StoreError) -> [String: LogPosition] {
    try StoreError.wrapping {
      try environment.read { txn in
        var result: [String: LogPosition] = [:]
        for type in ProjectionSet.types {
          result[type.name] =
            try ProjectionCheckpoint.load(type.name, meta: meta, in: txn)?.position ?? LogPosition.none
        }
        return result
      }
    }
  }
}
