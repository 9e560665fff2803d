/// What the kernel says about a process that connected to the store server: its credentials at
/// `connect(2)` (`SO_PEERCRED`), its executable and that file's digest, and its Flatpak application
/// id when it runs in a Flatpak sandbox. Gathered by the server, never supplied by the caller.
///
/// Every record written in a session opened with it (``EventStore/session(for:identifiedBy:)``)
/// carries it, as the record's caller context (record format version 2, docs/log-format.md), so
/// that the log says how its actor was identified; ``LogRecord/identification`` reads it back.
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
  /// The server's number for the connection the process called on; `nil` when none is known.
  public var connection: UInt64?

  /// Evidence as gathered.
  public init(
    uid: UInt32, gid: UInt32, pid: Int32, executable: String? = nil, executableSHA256: [UInt8]? = nil,
    flatpakApp: String? = nil, connection: UInt64? = nil
  ) {
    self.uid = uid
    self.gid = gid
    self.pid = pid
    self.executable = executable
    self.executableSHA256 = executableSHA256
    self.flatpakApp = flatpakApp
    self.connection = connection
  }

  /// How the caller was identified: `flatpak` when the sandbox named it, else `executable`.
  public var method: String { flatpakApp == nil ? "executable" : "flatpak" }

  /// The caller context of a record: payload-style fields (docs/log-format.md, §2).
  var context: [UInt8] {
    var fields = Payload()
    fields.append(tag: 1, unsigned: flatpakApp == nil ? 1 : 2)
    if let connection { fields.append(tag: 2, unsigned: connection) }
    fields.append(tag: 3, unsigned: UInt64(uid))
    fields.append(tag: 4, unsigned: UInt64(gid))
    fields.append(tag: 5, unsigned: UInt64(UInt32(bitPattern: pid)))
    if let executable { fields.append(tag: 6, string: executable) }
    if let executableSHA256 { fields.append(tag: 7, bytes: executableSHA256) }
    if let flatpakApp { fields.append(tag: 8, string: flatpakApp) }
    return fields.bytes
  }

  /// Decodes a record's caller context.
  init(context bytes: RawSpan) throws(StoreError) {
    let fields = try PayloadReader(bytes: bytes)
    guard let uid = try fields.unsigned(3), let gid = try fields.unsigned(4), let pid = try fields.unsigned(5) else {
      throw .malformedRecord("a caller context without uid, gid and pid")
    }
    self.init(
      uid: UInt32(truncatingIfNeeded: uid), gid: UInt32(truncatingIfNeeded: gid),
      pid: Int32(bitPattern: UInt32(truncatingIfNeeded: pid)), executable: try fields.string(6),
      executableSHA256: fields.bytes(7), flatpakApp: try fields.string(8), connection: try fields.unsigned(2))
  }
}
