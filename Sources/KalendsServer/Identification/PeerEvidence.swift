import Foundation
import Kalends
import KalendsFormats
import Logging
import NIOCore
import NIOPosix
import Synchronization

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

  /// What the kernel says about a peer: the evidence recorded, and its confinement, which decides
  /// whether it can be the person's channel.
  struct Peer: Sendable {
    var evidence: CallerEvidence
    var confinement: PeerConfinement
  }

  /// The server's own process, described as a peer is: the evidence of the person's answers given
  /// on the server's terminal (`serve --prompt tty`), and what the person's channel must match.
  static let ownProcess: CallerEvidence = {
    var evidence = CallerEvidence(uid: getuid(), gid: getgid(), pid: getpid())
    evidence.executable = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")
    evidence.executableSHA256 = FileDigest.sha256(ofFileAt: "/proc/self/exe")
    return evidence
  }()

  /// Where Flatpak keeps its records of running sandboxes for this user: `$XDG_RUNTIME_DIR`, or
  /// `/run/user/UID`.
  static let runtimeDirectory =
    ProcessInfo.processInfo.environment["XDG_RUNTIME_DIR"].flatMap { $0.isEmpty ? nil : $0 } ?? "/run/user/\(getuid())"

  /// The server's own confinement.
  static let ownConfinement = PeerConfinement(process: "/proc/self")

  /// Gathers the evidence about the peer of `channel`; `nil` when the channel is not a Unix socket
  /// or the kernel gave no credentials. The process's files are read while a pidfd holds it: when
  /// the process ended meanwhile (so that its pid could name another), the evidence is dropped.
  ///
  /// The process's files are read, and its executable hashed, on `pool` (never on the threads
  /// that serve other callers), through `digests`.
  static func gather(from channel: any Channel, on pool: NIOThreadPool, digests: DigestCache) async -> Peer? {
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
    return try? await pool.runIfActive { describe(credentials, pidfd: pidfd, digests: digests) }
  }

  /// The evidence about the process `credentials` name, read from `/proc` while `pidfd` (when the
  /// kernel gave one) holds it.
  private static func describe(_ credentials: Credentials, pidfd: CInt?, digests: DigestCache) -> Peer? {
    // Without a pidfd (a kernel before 6.5), the process's start time read before and after
    // stands in for it: a pid reused meanwhile names a process that started later.
    let started = pidfd == nil ? startTime(of: credentials.pid) : nil
    if pidfd == nil { warnOnceWithoutPIDFD() }
    var evidence = CallerEvidence(uid: credentials.uid, gid: credentials.gid, pid: credentials.pid)
    let process = "/proc/\(credentials.pid)"
    evidence.executable = try? FileManager.default.destinationOfSymbolicLink(atPath: process + "/exe")
    switch digests.sha256(ofFileAt: process + "/exe") {
    case .digest(let digest): evidence.executableSHA256 = digest
    case .tooLarge, .unreadable: evidence.executableSHA256 = nil
    }
    let confinement = PeerConfinement(process: process)
    evidence.flatpakApp = FlatpakInstance.verifiedApp(
      process: process, mountNamespace: confinement.mountNamespace, runtimeDirectory: runtimeDirectory)
    if let pidfd, hasEnded(pidfd) { return nil }
    if pidfd == nil, started == nil || startTime(of: credentials.pid) != started { return nil }
    return Peer(evidence: evidence, confinement: confinement)
  }

  private static let warnedWithoutPIDFD = Mutex(false)

  /// Logs once that the kernel gives no pidfd for a peer (`SO_PEERPIDFD`, Linux 6.5): the
  /// evidence then rests on the start-time check, which cannot see a pid reused before the
  /// process's files were first read.
  private static func warnOnceWithoutPIDFD() {
    guard
      warnedWithoutPIDFD.withLock({ warned in
        defer { warned = true }
        return !warned
      })
    else { return }
    ServerLogger.make("kalends.serve").warning(
      "the kernel gives no pidfd for socket peers (SO_PEERPIDFD needs Linux 6.5): a caller's pid is checked by its start time instead, which a pid reused at the moment of connecting could pass (docs/server.md)"
    )
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

}
