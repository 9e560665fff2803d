internal import CLMDB
internal import Platform

/// An open LMDB environment: one memory-mapped file holding named databases, shared safely by
/// threads and processes.
///
/// Reads run in MVCC snapshots and never wait for the writer. Writes are serialised across all
/// threads and processes by LMDB's writer lock. When a write fills the map, the environment grows it
/// and runs the write again (``EnvironmentOptions/growsMapAutomatically``), so callers do not see
/// ``LMDBError/mapFull`` in normal use. Stale reader slots left by dead processes are cleared on open.
package final class Environment: @unchecked Sendable {
  // Thread safety: the LMDB environment handle is thread-safe when opened with MDB_NOTLS, which this
  // type always uses. The only operation that needs exclusion is remapping (mdb_env_set_mapsize),
  // which holds `remapLock` exclusively while every transaction holds it shared.
  private let handle: OpaquePointer
  private let remapLock = ReadWriteLock()

  /// The directory holding `data.mdb` and `lock.mdb`.
  package let path: String
  /// The options the environment was opened with.
  package let options: EnvironmentOptions
  /// How many stale reader slots were cleared when the environment was opened.
  package let staleReadersCleared: Int

  /// Opens (and, when writable, creates) the environment in the existing directory `path`.
  package init(path: String, options: EnvironmentOptions = EnvironmentOptions()) throws(LMDBError) {
    var handle: OpaquePointer?
    try MDBValue.check(mdb_env_create(&handle))
    guard let handle else { throw LMDBError.panic }
    var flags = UInt32(MDB_NOTLS)
    if options.readOnly { flags |= UInt32(MDB_RDONLY) }
    if options.disablesReadAhead { flags |= UInt32(MDB_NORDAHEAD) }
    if options.withoutLocking { flags |= UInt32(MDB_NOLOCK) }
    switch options.durability {
    case .full: break
    case .noMetaSync: flags |= UInt32(MDB_NOMETASYNC)
    case .noSync: flags |= UInt32(MDB_NOSYNC)
    }
    var rc = mdb_env_set_mapsize(handle, options.mapSize)
    if rc == 0 { rc = mdb_env_set_maxreaders(handle, options.maxReaders) }
    if rc == 0 { rc = mdb_env_set_maxdbs(handle, options.maxDatabases) }
    if rc == 0 { rc = mdb_env_open(handle, path, flags, mdb_mode_t(options.fileMode)) }
    var dead: Int32 = 0
    if rc == 0 { rc = mdb_reader_check(handle, &dead) }
    guard rc == 0 else {
      mdb_env_close(handle)
      throw LMDBError(code: rc)
    }
    self.handle = handle
    self.path = path
    self.options = options
    self.staleReadersCleared = Int(dead)
  }

  deinit {
    mdb_env_close(handle)
  }

  // MARK: Transactions

  /// Runs `body` in a read-only snapshot and returns its result.
  ///
  /// Do not keep anything the transaction lends beyond `body`. Never start a write from inside
  /// `body` that might need to grow the map while this snapshot is open.
  package func read<R>(_ body: (borrowing ReadTransaction) throws -> R) throws -> R {
    let txn = try beginReadOnly()
    defer { remapLock.unlockShared() }
    let transaction = ReadTransaction(handle: txn)
    let result: R
    do {
      result = try body(transaction)
    } catch {
      mdb_txn_abort(txn)
      throw error
    }
    // Committing (not aborting) a read transaction keeps database handles it opened.
    try MDBValue.check(mdb_txn_commit(txn))
    return result
  }

  /// Begins a read-only transaction with the remap lock held shared (the caller releases it),
  /// first adopting a map that another process grew when LMDB asks for it.
  private func beginReadOnly() throws(LMDBError) -> OpaquePointer {
    try begin(flags: UInt32(MDB_RDONLY))
  }

  /// Begins a transaction with `flags`, the remap lock held shared (the caller releases it), first
  /// adopting a map that another process grew when LMDB asks for it.
  private func begin(flags: UInt32) throws(LMDBError) -> OpaquePointer {
    while true {
      remapLock.lockShared()
      var txn: OpaquePointer?
      let rc = mdb_txn_begin(handle, nil, flags, &txn)
      if rc == MDB_MAP_RESIZED {
        remapLock.unlockShared()
        try adoptMapSizeFromOtherProcess()
        continue
      }
      guard rc == 0, let txn else {
        remapLock.unlockShared()
        throw LMDBError(code: rc)
      }
      return txn
    }
  }

  /// Runs `body` in the write transaction and commits when it returns; rolls back when it throws.
  ///
  /// Writers wait for each other, in this process and in others. When the map fills up, the write is
  /// rolled back, the map grows, and `body` runs again from the start: `body` must not have effects
  /// outside the transaction that would be wrong to repeat.
  package func write<R>(_ body: (inout WriteTransaction) throws -> R) throws -> R {
    guard !options.readOnly else { throw LMDBError.readOnly }
    while true {
      let txn = try begin(flags: 0)
      // The map size under this transaction: the remap lock, held from `begin` on, keeps it.
      let mapSizeAtStart = currentMapSize()
      var transaction = WriteTransaction(handle: txn)
      let result: R
      do {
        result = try body(&transaction)
      } catch {
        mdb_txn_abort(txn)
        remapLock.unlockShared()
        if transaction.failure == .mapFull {
          try growMap(beyond: mapSizeAtStart)
          continue
        }
        throw error
      }
      if let failure = transaction.failure {
        // The body swallowed an error; LMDB will not commit a failed transaction.
        mdb_txn_abort(txn)
        remapLock.unlockShared()
        if failure == .mapFull {
          try growMap(beyond: mapSizeAtStart)
          continue
        }
        throw failure
      }
      let commit = mdb_txn_commit(txn)
      remapLock.unlockShared()
      if commit == MDB_MAP_FULL {
        try growMap(beyond: mapSizeAtStart)
        continue
      }
      if commit == EIO { throw causeOfFailedCommit() }
      try MDBValue.check(commit)
      return result
    }
  }

  /// Runs `body` with the transaction ID of a read snapshot held open meanwhile, without reading
  /// any database: only the meta pages are touched, so this is safe on a damaged file.
  func withRawSnapshot<R>(_ body: (UInt64) throws(LMDBError) -> R) throws(LMDBError) -> R {
    let txn = try beginReadOnly()
    defer {
      mdb_txn_abort(txn)
      remapLock.unlockShared()
    }
    return try body(UInt64(mdb_txn_id(txn)))
  }

  // MARK: Databases

  /// Opens a database in its own transaction: with ``DatabaseOptions/create`` in a write
  /// transaction, otherwise read-only (then it must exist, or ``LMDBError/notFound`` is thrown).
  package func openDatabase(named name: String?, options: DatabaseOptions = .create) throws -> Database {
    if options.contains(.create) && !self.options.readOnly {
      return try write { txn in try txn.openDatabase(named: name, options: options) }
    }
    return try read { txn in try txn.openDatabase(named: name, options: options.subtracting(.create)) }
  }

  // MARK: Maintenance

  /// Flushes written data to disk; with `force`, even under ``EnvironmentOptions/Durability/noSync``.
  package func sync(force: Bool = true) throws(LMDBError) {
    try MDBValue.check(mdb_env_sync(handle, force ? 1 : 0))
  }

  /// The current map size, pages in use and reader slots.
  package func info() throws(LMDBError) -> EnvironmentInfo {
    var info = MDB_envinfo()
    try MDBValue.check(mdb_env_info(handle, &info))
    return EnvironmentInfo(
      mapSize: info.me_mapsize,
      lastPageNumber: info.me_last_pgno,
      lastTransactionID: info.me_last_txnid,
      maxReaders: Int(info.me_maxreaders),
      readersUsed: Int(info.me_numreaders)
    )
  }

  /// Statistics of the environment's main database (page size, depth, entries).
  package func statistics() throws(LMDBError) -> DatabaseStatistics {
    var stat = MDB_stat()
    try MDBValue.check(mdb_env_stat(handle, &stat))
    return DatabaseStatistics(stat)
  }

  /// The largest key LMDB accepts, in bytes.
  package var maximumKeySize: Int { Int(mdb_env_get_maxkeysize(handle)) }

  /// Clears reader slots held by processes that no longer exist. Returns how many were cleared.
  @discardableResult
  package func clearStaleReaders() throws(LMDBError) -> Int {
    var dead: Int32 = 0
    try MDBValue.check(mdb_reader_check(handle, &dead))
    return Int(dead)
  }

  /// Writes a consistent copy of the environment into the existing, empty directory `destination`
  /// while readers and writers go on. With `compacting`, free pages are left out.
  ///
  /// The copy reads in its own snapshot, so it holds off map growth in this process while it runs,
  /// and adopts a map grown by another process before it starts.
  package func copy(to destination: String, compacting: Bool = true) throws(LMDBError) {
    while true {
      remapLock.lockShared()
      let rc = mdb_env_copy2(handle, destination, compacting ? UInt32(MDB_CP_COMPACT) : 0)
      remapLock.unlockShared()
      if rc == MDB_MAP_RESIZED {
        unlink(destination + "/data.mdb")  // the copy created it before it found the map resized
        try adoptMapSizeFromOtherProcess()
        continue
      }
      try MDBValue.check(rc)
      return
    }
  }

  // MARK: Map growth

  private func currentMapSize() -> Int {
    var info = MDB_envinfo()
    _ = mdb_env_info(handle, &info)  // cannot fail for an open environment
    return info.me_mapsize
  }

  /// How long a growth waits for this process's open transactions to end.
  private static let remapTimeoutNanoseconds: UInt64 = 30_000_000_000

  private func growMap(beyond observed: Int) throws(LMDBError) {
    guard options.growsMapAutomatically else { throw LMDBError.mapFull }
    guard remapLock.tryLockExclusive(timeoutNanoseconds: Self.remapTimeoutNanoseconds) else {
      throw LMDBError.mapFull
    }
    defer { remapLock.unlockExclusive() }
    let current = currentMapSize()
    guard current <= observed else { return }  // another thread already grew it
    guard current < options.maximumMapSize else { throw LMDBError.mapFull }
    let pageSize = 4096
    var next = min(max(current * 2, current + (1 << 20)), options.maximumMapSize)
    next = (next + pageSize - 1) / pageSize * pageSize
    try MDBValue.check(mdb_env_set_mapsize(handle, next))
  }

  private func adoptMapSizeFromOtherProcess() throws(LMDBError) {
    // A transaction of this thread is still open around this one: the map cannot move under it.
    guard !remapLock.isHeldSharedByCurrentThread else { throw LMDBError.mapResized }
    guard remapLock.tryLockExclusive(timeoutNanoseconds: Self.remapTimeoutNanoseconds) else {
      throw LMDBError.mapResized
    }
    defer { remapLock.unlockExclusive() }
    try MDBValue.check(mdb_env_set_mapsize(handle, 0))
  }
}
