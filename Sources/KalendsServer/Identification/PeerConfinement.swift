import Foundation
import Platform

/// What confines a process apart from its credentials: its mount and user namespaces and its
/// root directory, as the kernel names them (`/proc/PID/ns/mnt`, `/proc/PID/ns/user`, the device
/// and inode of `/proc/PID/root`). A Flatpak (bubblewrap) sandbox, a container or a chroot differs
/// from the server's own in at least one; a part that cannot be read is `nil`, which never
/// equals the server's.
struct PeerConfinement: Equatable, Sendable {
  var mountNamespace: String?
  var userNamespace: String?
  var root: [UInt64]?

  /// The confinement of the process whose `/proc` directory is `process`.
  init(process: String) {
    mountNamespace = try? FileManager.default.destinationOfSymbolicLink(atPath: process + "/ns/mnt")
    userNamespace = try? FileManager.default.destinationOfSymbolicLink(atPath: process + "/ns/user")
    root = FileStatus(path: process + "/root").map { [$0.device, $0.inode] }
  }

  /// Whether every part is known and equals `other`'s.
  func isSame(as other: PeerConfinement) -> Bool {
    mountNamespace != nil && userNamespace != nil && root != nil && self == other
  }
}
