import Foundation
import KalendsTestSupport

/// A small tmpfs mounted for one test (a full disk, a read-only file system), unmounted when
/// released. Needs the right to mount (root in a container that allows it): ``isAvailable``.
final class TmpfsMount {
  let directory = TemporaryDirectory("mount")
  var path: String { directory.path }

  /// Whether this process can mount a tmpfs here.
  static let isAvailable: Bool = {
    guard getuid() == 0, let trial = try? TmpfsMount(bytes: 1 << 20) else { return false }
    withExtendedLifetime(trial) {}
    return true
  }()

  /// Mounts a tmpfs of `bytes` bytes on a new temporary directory.
  init(bytes: Int) throws {
    try Self.mount(["-t", "tmpfs", "-o", "size=\(bytes)", "tmpfs", directory.path])
  }

  /// Makes the file system read-only (or writable again).
  func remount(readOnly: Bool) throws {
    try Self.mount(["-o", readOnly ? "remount,ro" : "remount,rw", directory.path])
  }

  deinit { try? Self.run("/bin/umount", [directory.path]) }

  private static func mount(_ arguments: [String]) throws { try run("/bin/mount", arguments) }

  private static func run(_ tool: String, _ arguments: [String]) throws {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: tool)
    process.arguments = arguments
    process.standardError = FileHandle.nullDevice
    try process.run()
    process.waitUntilExit()
    guard process.terminationStatus == 0 else {
      throw CocoaError(.fileWriteUnknown, userInfo: [NSLocalizedDescriptionKey: "\(tool) \(arguments) failed"])
    }
  }
}
