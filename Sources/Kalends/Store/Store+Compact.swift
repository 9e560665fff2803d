internal import Foundation
internal import LMDB
internal import Platform

extension Store {
  /// What ``compact(at:)`` did.
  public struct Compaction: Hashable, Sendable {
    /// The data file's size before, in bytes.
    public let bytesBefore: Int
    /// Its size after.
    public let bytesAfter: Int
    /// The head of the log, the same before and after.
    public let head: LogHead
  }

  /// Rewrites the store's data file without its free pages — among them the pages that held
  /// content erased since (``PrivacySettings/erase(_:reason:)``) — and overwrites the old file's bytes
  /// with zeros before letting it go.
  ///
  /// LMDB never writes over a page that a snapshot may still read: after an erasure the erased
  /// bytes stay in `data.mdb` until later writes reuse their pages, which nothing bounds. Compaction
  /// ends that at once. It needs the store alone: it takes LMDB's lock-file lock exclusively, so it
  /// refuses a store another process has open (``StoreError/storeInUse(path:)``), and a process that
  /// tries to open the store while it runs fails and must try again. The copy is complete and
  /// checked (its head equals the original's) before it replaces the original by a rename; a crash
  /// before the rename leaves the original as it was.
  ///
  /// Overwriting the old file reaches the disk's blocks on file systems that write in place (ext4,
  /// XFS); copy-on-write file systems (btrfs, ZFS) and flash translation layers may keep old blocks
  /// until they reuse them: encrypt the disk where that matters (docs/transparency.md).
  public static func compact(at path: String) throws(StoreError) -> Compaction {
    let dataPath = path + "/data.mdb"
    let lockPath = path + "/lock.mdb"
    guard FileManager.default.fileExists(atPath: dataPath) else { throw .storeNotFound(path: path) }
    let lock = Glibc.open(lockPath, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
    guard lock >= 0 else { throw .fileSystem("cannot open \(lockPath): \(String(cString: strerror(errno)))") }
    // Closing the descriptor releases the lock; nothing else in this process opens the lock file
    // meanwhile (the environment below is opened without it), so no other close drops it early.
    defer { close(lock) }
    // LMDB holds a shared lock on the first byte of the lock file for as long as a process has the
    // environment open, and tries for an exclusive one when it opens it.
    var exclusive = flock()
    exclusive.l_type = Int16(F_WRLCK)
    exclusive.l_whence = Int16(SEEK_SET)
    exclusive.l_start = 0
    exclusive.l_len = 1
    guard fcntl(lock, F_SETLK, &exclusive) == 0 else { throw .storeInUse(path: path) }

    let staging = path + "/.compacting"
    let manager = FileManager.default
    try? manager.removeItem(atPath: staging)
    do {
      try manager.createDirectory(
        atPath: staging, withIntermediateDirectories: false, attributes: [.posixPermissions: 0o700])
    } catch {
      throw .fileSystem("cannot create \(staging): \(error.localizedDescription)")
    }
    defer { try? manager.removeItem(atPath: staging) }
    var options = StoreOptions(readOnly: true).environmentOptions
    options.withoutLocking = true
    let head: LogHead
    let copyHead: LogHead
    do {
      let environment = try Environment(path: path, options: options)
      head = try Self.head(of: environment)
      try environment.copy(to: staging, compacting: true)
      copyHead = try Self.head(of: try Environment(path: staging, options: options))
    } catch let error as StoreError {
      throw error
    } catch let error as LMDBError {
      throw .storage(StorageFailure(error))
    } catch {
      throw .fileSystem("\(error)")
    }
    guard copyHead == head else {
      throw .fileSystem(
        "the compacted copy ends at \(copyHead.position), not \(head.position): the store was left as it was")
    }
    let before = try fileSize(dataPath)
    let copied = Glibc.open(staging + "/data.mdb", O_RDWR | O_CLOEXEC)
    let old = Glibc.open(dataPath, O_RDWR | O_CLOEXEC)
    defer {
      if copied >= 0 { close(copied) }
      if old >= 0 { close(old) }
    }
    guard copied >= 0, old >= 0, fchmod(copied, 0o600) == 0, fsync(copied) == 0 else {
      throw .fileSystem("cannot prepare the compacted copy: \(String(cString: strerror(errno)))")
    }
    guard rename(staging + "/data.mdb", dataPath) == 0 else {
      throw .fileSystem("cannot put the compacted copy in place: \(String(cString: strerror(errno)))")
    }
    syncDirectory(path)
    // A process that waited on the lock meanwhile would find LMDB's shared state of the old file;
    // emptied, the lock file is built anew by the next process that opens the store alone, and
    // such a waiter fails instead of reading the new file through the old state.
    _ = ftruncate(lock, 0)
    try overwrite(old, bytes: before)
    return Compaction(bytesBefore: before, bytesAfter: try fileSize(dataPath), head: head)
  }

  /// The head recorded in an environment's metadata.
  private static func head(of environment: Environment) throws -> LogHead {
    try environment.read { txn in
      let meta = try txn.openDatabase(named: MetaKey.metaDatabase)
      return try loadHead(meta: meta, in: txn)
    }
  }

  private static func fileSize(_ path: String) throws(StoreError) -> Int {
    var status = stat()
    guard stat(path, &status) == 0 else {
      throw .fileSystem("cannot read \(path): \(String(cString: strerror(errno)))")
    }
    return Int(status.st_size)
  }

  /// Writes zeros over the first `bytes` bytes of the file open at `fd`, and flushes them.
  private static func overwrite(_ fd: Int32, bytes: Int) throws(StoreError) {
    let zeros = [UInt8](repeating: 0, count: 1 << 20)
    var offset = 0
    while offset < bytes {
      let count = min(zeros.count, bytes - offset)
      let written = zeros.withUnsafeBytes { pwrite(fd, $0.baseAddress, count, off_t(offset)) }
      guard written > 0 else {
        throw .fileSystem("cannot overwrite the old data file: \(String(cString: strerror(errno)))")
      }
      offset += written
    }
    guard fsync(fd) == 0 else {
      throw .fileSystem("cannot flush the overwritten data file: \(String(cString: strerror(errno)))")
    }
  }

  private static func syncDirectory(_ path: String) {
    let directory = Glibc.open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
    guard directory >= 0 else { return }
    _ = fsync(directory)
    close(directory)
  }
}
