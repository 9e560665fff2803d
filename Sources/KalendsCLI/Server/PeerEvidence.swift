import Foundation
import Kalends
import NIOCore

/// What the kernel says about the process at the other end of a Unix-socket connection: its
/// credentials from `connect(2)` (`SO_PEERCRED`), then, through a pidfd for that very process
/// (`SO_PEERPIDFD`), its executable, the digest of the running file and its Flatpak id.
enum PeerEvidence {
  /// `struct ucred`.
  private struct Credentials: Sendable {
    var pid: Int32 = 0
    var uid: UInt32 = 0
    var gid: UInt32 = 0
  }

  /// `SO_PEERPIDFD` (Linux 6.5): a pidfd for the peer as it was at `connect(2)`.
  private static let peerPIDFD: CInt = 77

  /// Gathers the evidence about the peer of `channel`; `nil` when the channel is not a Unix socket
  /// or the kernel gave no credentials. The process's files are read while a pidfd holds it: when
  /// the process ended meanwhile (so that its pid could name another), the evidence is dropped.
  static func gather(from channel: any Channel) async -> CallerEvidence? {
    guard let provider = channel as? any SocketOptionProvider else { return nil }
    guard
      let credentials: Credentials = try? await provider.unsafeGetSocketOption(
        level: SocketOptionLevel(SOL_SOCKET), name: SocketOptionName(SO_PEERCRED)
      ).get(), credentials.pid > 0
    else { return nil }
    let pidfd: CInt? = try? await provider.unsafeGetSocketOption(
      level: SocketOptionLevel(SOL_SOCKET), name: peerPIDFD
    ).get()
    defer { if let pidfd { close(pidfd) } }
    var evidence = CallerEvidence(uid: credentials.uid, gid: credentials.gid, pid: credentials.pid)
    let process = "/proc/\(credentials.pid)"
    evidence.executable = try? FileManager.default.destinationOfSymbolicLink(atPath: process + "/exe")
    evidence.executableSHA256 = FileDigest.sha256(ofFileAt: process + "/exe")
    evidence.flatpakApp = flatpakApp(info: process + "/root/.flatpak-info")
    if let pidfd, hasEnded(pidfd) { return nil }
    return evidence
  }

  /// When process `pid` started, in clock ticks since boot (`/proc/PID/stat`, field 22): with the
  /// pid, it names one process for as long as the machine runs.
  static func startTime(of pid: Int32) -> UInt64? {
    guard let text = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
      let close = text.lastIndex(of: ")")
    else { return nil }
    let fields = text[text.index(after: close)...].split(separator: " ")
    // After the command come state (field 3) … starttime (field 22): index 19 here.
    return fields.count > 19 ? UInt64(fields[19]) : nil
  }

  /// Whether the process of `pidfd` has ended: its pidfd polls readable then.
  private static func hasEnded(_ pidfd: CInt) -> Bool {
    var entry = pollfd(fd: pidfd, events: Int16(POLLIN), revents: 0)
    return poll(&entry, 1, 0) != 0
  }

  /// The `name` of the `[Application]` group of a Flatpak sandbox's `/.flatpak-info`, as
  /// xdg-desktop-portal reads it; `nil` outside a sandbox.
  static func flatpakApp(info path: String) -> String? {
    guard let text = try? String(contentsOfFile: path, encoding: .utf8) else { return nil }
    var inApplication = false
    for line in text.split(whereSeparator: \.isNewline) {
      let trimmed = line.trimmingCharacters(in: .whitespaces)
      if trimmed.hasPrefix("[") {
        inApplication = trimmed == "[Application]"
      } else if inApplication, trimmed.hasPrefix("name=") {
        return String(trimmed.dropFirst(5))
      }
    }
    return nil
  }
}
