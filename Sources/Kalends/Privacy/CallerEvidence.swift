/// What the kernel says about a process that connected to the store server: its credentials at
/// `connect(2)` (`SO_PEERCRED`), its executable and that file's digest, and its Flatpak application
/// id when it runs in a Flatpak sandbox. Gathered by the server, never supplied by the caller.
public struct CallerEvidence: Hashable, Sendable {
  /// The peer's user id.
  public var uid: UInt32
  /// The peer's group id.
  public var gid: UInt32
  /// The peer's process id (read through a pidfd, so a reused pid is noticed).
  public var pid: Int32
  /// The executable the process runs (`/proc/PID/exe`); `nil` when it could not be read.
  public var executable: String?
  /// The SHA-256 of the executable's bytes, read from the running file itself.
  public var executableSHA256: [UInt8]?
  /// The Flatpak application id from the process's `/.flatpak-info`; `nil` outside Flatpak.
  public var flatpakApp: String?

  /// Evidence as gathered.
  public init(
    uid: UInt32, gid: UInt32, pid: Int32, executable: String? = nil, executableSHA256: [UInt8]? = nil,
    flatpakApp: String? = nil
  ) {
    self.uid = uid
    self.gid = gid
    self.pid = pid
    self.executable = executable
    self.executableSHA256 = executableSHA256
    self.flatpakApp = flatpakApp
  }
}
