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
/// cannot make the server read gigabytes for each of its connections.
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
