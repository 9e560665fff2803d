internal import Foundation
internal import LMDB
import Synchronization

extension Store {
  /// Rebuilds every projection that starts from nothing (new, of another version, or emptied by a
  /// rebuild): one write transaction empties them and marks them as loading (version 0, so an
  /// interrupted load starts over at the next open, and writes are refused meanwhile); then the
  /// loaders are shared among as many threads as there are cores (those with a loader of their own
  /// first, ``ReplayLoader`` for the others), each thread reads the log up to the head once for its
  /// loaders, and each loader prepares its output and writes its databases in key order, in chunks
  /// of `options.bulkLoadChunk` entries (1,000,000: a few dozen megabytes of dirty pages a
  /// transaction, and a third as many flushes of the data file as 250,000 gave: 19 against 60 in a
  /// 1M-event rebuild), the last of which saves its checkpoint. Returns the records read (0 when no
  /// projection needed it).
  func bulkLoadProjections(
    _ projections: ProjectionSet, progress: ((RebuildProgress) -> Void)?
  ) throws -> Int {
    var loading: [(any Projection, any ProjectionBulkLoader)] = []
    let head = try environment.write { txn in
      loading = []
      let head = try Self.loadHead(meta: meta, in: txn)
      for projection in projections.projections {
        let kind = type(of: projection)
        let checkpoint = try ProjectionCheckpoint.load(kind.name, meta: meta, in: txn)
        let empty = checkpoint == nil || checkpoint!.version != kind.version || checkpoint!.position == .none
        guard empty, head.position > .none else { continue }
        for database in projection.databases(from: projections.databases) { try txn.removeAll(in: database) }
        try ProjectionCheckpoint(version: 0, position: .none).save(kind.name, meta: meta, in: &txn)
        loading.append((projection, projection.makeBulkLoader() ?? ReplayLoader(projection, log: self.log)))
      }
      return head
    }
    guard !loading.isEmpty else { return 0 }
    try bulkLoad(loading, upTo: head, into: environment, meta: meta, progress: progress)
    return Int(head.position.rawValue)
  }

  /// The reading and writing of a bulk load: `loading`'s loaders read this store's log up to
  /// `head` and write their output to `target` (this store's environment, or the scratch one of
  /// ``verifyProjections(progress:)``), the last chunk of each saving its projection's checkpoint
  /// in `targetMeta`. The log must not change up to `head` meanwhile (it never does: it is only
  /// appended to).
  func bulkLoad(
    _ loading: [(any Projection, any ProjectionBulkLoader)], upTo head: LogHead, into target: Environment,
    meta targetMeta: Database, progress: ((RebuildProgress) -> Void)?
  ) throws {
    var loading = loading
    // The loaders of their own each start a thread; a replay loader shares the first ones'.
    loading.sort { !($0.1 is ReplayLoader) && $1.1 is ReplayLoader }
    let threads = max(1, min(loading.count, ProcessInfo.processInfo.activeProcessorCount))
    let groups = (0..<threads).map { thread in Array(stride(from: thread, to: loading.count, by: threads)) }
    let loaders = loading.map { LoaderBox($0.1) }
    // The kinds each loader applies, as raw values: `Set.contains` would hash every record's kind
    // with SipHash, for a set of at most a few kinds.
    let kinds = loading.map { type(of: $0.0).kinds.map(\.rawValue) }
    let checkpoints = loading.map { (name: type(of: $0.0).name, version: type(of: $0.0).version) }
    let (metaDatabase, chunk) = (targetMeta, options.bulkLoadChunk)
    let log = self.log
    let environment = self.environment
    let total = Int(head.position.rawValue)
    let reporter = ProgressBox(progress)
    let failures = Mutex<[any Error]>([])
    // Each thread reads the log up to the head in its own snapshot (the log is immutable up to the
    // head; nothing else writes while the projections are loading, see
    // `ProjectionSet.checkCurrent`). Every thread decoding the record headers itself costs less
    // than handing records from one reader to the others.
    DispatchQueue.concurrentPerform(iterations: threads) { thread in
      let group = groups[thread]
      // The loaders are used from a local array: through the boxes, every call would pay for a
      // dynamic exclusivity check.
      var mine = group.map { loaders[$0].loader }
      let applied = group.map { kinds[$0] }
      do {
        try environment.read { txn in
          let size = try txn.statistics(of: log)
          for index in mine.indices {
            mine[index].reserve(
              records: size.entries, bytes: (size.leafPages + size.overflowPages) * size.pageSize)
          }
          try txn.withCursor(on: log) { cursor in
            guard try cursor.first() else { return }
            var principals = PrincipalCache()
            try cursor.scanForward { _, value in
              // Each line of a record is a cache miss (the log is read once, far larger than any
              // cache): asked for all at once, they are fetched side by side rather than one after
              // the other as decoding reaches them.
              value.withUnsafeBytes { Prefetch.bytes(0..<$0.count, of: $0, limit: Self.recordPrefetchBytes) }
              let decoded = try RecordCodec.decodeHeader(value, principals: &principals)
              let header = decoded.header
              guard header.position <= head.position else { return .stop }
              // One thread checks each record's author for every loader (most kinds need only a
              // look at the principal).
              if thread == 0,
                let reason = RecordAuthority.violation(
                  kind: header.kind, principal: header.principal, payload: value.extracting(decoded.payload))
              {
                throw StoreError.unauthorizedRecord(at: header.position, reason)
              }
              for index in mine.indices where applied[index].contains(header.kind.rawValue) {
                do {
                  try mine[index].apply(header, payload: value.extracting(decoded.payload))
                } catch {
                  throw StoreError.projection(checkpoints[group[index]].name, cannotApply: header.position, error)
                }
              }
              if thread == 0, header.position.rawValue % UInt64(Self.replayChunk) == 0 {
                reporter.report(.reading(done: Int(header.position.rawValue), total: total))
              }
              return .continue
            }
          }
        }
        reporter.scanned(threads: threads, records: total, loaders: loaders.count)
        // Each loader's memory is let go once it is written.
        var pending = mine.map { Optional($0) }
        mine = []
        for (index, loading) in group.enumerated() {
          var loader = pending[index]!
          pending[index] = nil
          try loader.prepare()
          // Written as soon as prepared: one loader writes while another still prepares (LMDB
          // serialises the write transactions).
          var done = false
          while !done {
            try loader.awaitNextChunk()
            let before = loader
            try target.write { txn in
              loader = before
              done = try loader.write(in: &txn, limit: chunk)
              if done {
                try ProjectionCheckpoint(version: checkpoints[loading].version, position: head.position).save(
                  checkpoints[loading].name, meta: metaDatabase, in: &txn)
              }
            }
          }
          reporter.wrote(of: loaders.count, threads: threads)
        }
      } catch {
        failures.withLock { $0.append(error) }
      }
    }
    if let failure = failures.withLock({ $0.first }) { throw failure }
  }
}

extension Store {
  /// How much of each record the bulk load's scan asks into the cache before decoding it: the
  /// header and the fields its loaders read first.
  static let recordPrefetchBytes = 512
}

/// A bulk loader handed to the thread that fills it (which works on its own copy).
private final class LoaderBox: @unchecked Sendable {
  let loader: any ProjectionBulkLoader

  init(_ loader: any ProjectionBulkLoader) { self.loader = loader }
}

/// The caller's progress callback, called from the loaders' threads one call at a time, in order:
/// the records read, then (once every thread has read the log) the loaders written.
private final class ProgressBox: @unchecked Sendable {
  private let progress: ((RebuildProgress) -> Void)?
  /// How many threads have read the log, and how many loaders have written everything.
  private let counts = Mutex((scanned: 0, written: 0))

  init(_ progress: ((RebuildProgress) -> Void)?) { self.progress = progress }

  func report(_ state: RebuildProgress) {
    guard let progress else { return }
    counts.withLock { _ in progress(state) }
  }

  /// Counts one more thread that has read the log, of `threads`; the last one reports the reading
  /// done and the loaders already written, of `loaders`.
  func scanned(threads: Int, records: Int, loaders: Int) {
    guard let progress else { return }
    counts.withLock { counts in
      counts.scanned += 1
      guard counts.scanned == threads else { return }
      progress(.reading(done: records, total: records))
      progress(.writing(done: counts.written, total: loaders))
    }
  }

  /// Counts one more loader written in full, of `total`.
  func wrote(of total: Int, threads: Int) {
    guard let progress else { return }
    counts.withLock { counts in
      counts.written += 1
      if counts.scanned == threads { progress(.writing(done: counts.written, total: total)) }
    }
  }
}
