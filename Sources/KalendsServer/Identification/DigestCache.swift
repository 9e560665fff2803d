import Foundation
import Kalends
import KalendsFormats
import Platform
import Synchronization

/// The SHA-256 of executables the server has hashed, keyed by what changes whenever a file's bytes
/// change — its device, inode, size, modification and status-change times (`ctime` cannot be set
/// back by a program) — so that a new connection of a known app costs a `stat`, not a hash of the
/// whole file. A file that changed while it was hashed is not kept. Files larger than
/// ``maximumSize`` are not hashed at all: their callers are not identified, so that one caller
/// cannot make the server read gigabytes for each of its connections. One file is hashed once at a
/// time: the connections of a file being hashed wait for that hash rather than each reading the
/// file again on another of the identification threads (a file just under the bound, opened by
/// many connections at once, would otherwise hold every thread and every other caller behind it).
final class DigestCache: Sendable {
  private struct Key: Hashable {
    let device: UInt64
    let inode: UInt64
    let size: Int64
    let modified: [Int]
    let changed: [Int]

    init(_ info: FileStatus) {
      device = info.device
      inode = info.inode
      size = info.size
      modified = info.modified
      changed = info.changed
    }
  }

  /// The largest executable hashed: 1 GiB.
  static let maximumSize: Int64 = 1 << 30
  /// How many digests are kept; the oldest go first.
  static let capacity = 4_096

  private let digests = Mutex<(entries: [Key: [UInt8]], order: [Key])>(([:], []))
  /// The files being hashed now, and their waiters' wake-up.
  private let hashing = InFlight()
  /// How many hashes were made (each a whole read of a file): what coalescing saves.
  let hashesMade = Atomic<Int>(0)

  /// What hashing a file gave: its digest, or why there is none.
  enum Outcome: Equatable {
    case digest([UInt8])
    case tooLarge(Int64)
    case unreadable
  }

  /// The digest of the file at `path` (read through the link `/proc/PID/exe`, so the running file
  /// itself), from the cache when the file is unchanged.
  func sha256(ofFileAt path: String) -> Outcome {
    let descriptor = open(path, O_RDONLY | O_CLOEXEC)
    guard descriptor >= 0 else { return .unreadable }
    defer { close(descriptor) }
    guard let before = FileStatus(descriptor: descriptor) else { return .unreadable }
    guard before.size <= Self.maximumSize else { return .tooLarge(before.size) }
    let key = Key(before)
    if let known = digests.withLock({ $0.entries[key] }) { return .digest(known) }
    // Another connection of the same file is hashing it: its digest is this one's.
    while !hashing.begin(key) {
      if let known = digests.withLock({ $0.entries[key] }) { return .digest(known) }
    }
    defer { hashing.end(key) }
    if let known = digests.withLock({ $0.entries[key] }) { return .digest(known) }
    hashesMade.add(1, ordering: .relaxed)
    guard let digest = FileDigest.sha256(ofDescriptor: descriptor) else { return .unreadable }
    guard let after = FileStatus(descriptor: descriptor), Key(after) == key else { return .digest(digest) }
    digests.withLock { cache in
      if cache.entries.updateValue(digest, forKey: key) == nil { cache.order.append(key) }
      if cache.order.count > Self.capacity {
        cache.entries[cache.order.removeFirst()] = nil
      }
    }
    return .digest(digest)
  }
}

/// The keys of the files being hashed, and a condition their waiters sleep on.
private final class InFlight: @unchecked Sendable {
  // Guarded by `condition`'s lock.
  private var keys: Set<AnyHashable> = []
  private let condition = NSCondition()

  /// Marks `key` as being hashed by the caller and returns `true`; when another caller is hashing
  /// it, waits until that one ends and returns `false` (the caller then looks in the cache again).
  func begin(_ key: AnyHashable) -> Bool {
    condition.lock()
    defer { condition.unlock() }
    guard keys.contains(key) else {
      keys.insert(key)
      return true
    }
    while keys.contains(key) { condition.wait() }
    return false
  }

  /// Ends the hash of `key` and wakes its waiters.
  func end(_ key: AnyHashable) {
    condition.lock()
    keys.remove(key)
    condition.broadcast()
    condition.unlock()
  }
}
