/// What the store server knows about a caller from its own side of the connection, never from
/// the caller's word: for a Unix-socket peer, the kernel's credentials at `connect(2)`
/// (`SO_PEERCRED`), its executable and that file's digest, and its Flatpak application id when it
/// runs in a Flatpak sandbox; for a TCP peer, its address and the app token it presented (by the
/// token's id: the secret itself is never kept).
///
/// Every record written in a session opened with it (the store server's sessions)
/// carries it, as the record's caller context (record format version 2, docs/log-format.md), so
/// that the log says how its actor was identified; ``LogRecord/identification`` reads it back.
public struct CallerEvidence: Hashable, Sendable {
  /// The peer's user id; `nil` for a TCP peer.
  public package(set) var uid: UInt32?
  /// The peer's group id; `nil` for a TCP peer.
  public package(set) var gid: UInt32?
  /// The peer's process id (read through a pidfd, so a reused pid is noticed); `nil` for a TCP peer.
  public package(set) var pid: Int32?
  /// The executable the process runs (`/proc/PID/exe`); `nil` when it could not be read.
  public package(set) var executable: String?
  /// The SHA-256 of the executable's bytes, read from the running file itself.
  public package(set) var executableSHA256: [UInt8]?
  /// The Flatpak application id from the process's `/.flatpak-info`; `nil` outside Flatpak.
  public package(set) var flatpakApp: String?
  /// The server's number for the connection the process called on; `nil` when none is known.
  public package(set) var connection: UInt64?
  /// The id of the app token a TCP peer presented (``ClientToken/id``); `nil` for a Unix-socket peer.
  public package(set) var tokenID: String?
  /// A TCP peer's address and port, as the server's socket saw it; `nil` for a Unix-socket peer.
  public package(set) var address: String?

  /// Evidence about a Unix-socket peer, as gathered.
  package init(
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

  /// Evidence about a TCP peer at `address` that presented the token `tokenID` (its id, or `nil`
  /// when it presented none).
  package init(address: String, tokenID: String?, connection: UInt64? = nil) {
    self.address = address
    self.tokenID = tokenID
    self.connection = connection
  }

  /// How the caller was identified: `token` for a peer that presented an app token (over TCP, or
  /// over the Unix socket: an interpreted app), `flatpak` when a sandbox named it, else
  /// `executable`.
  public var method: String {
    if uid == nil || tokenID != nil { return "token" }
    return flatpakApp == nil ? "executable" : "flatpak"
  }

  /// The evidence of a Unix-socket peer that presented the token `tokenID`: the kernel's word
  /// about the process, and the token that names its app.
  package func presenting(tokenID: String, connection: UInt64? = nil) -> CallerEvidence {
    var evidence = self
    evidence.tokenID = tokenID
    evidence.address = "unix"
    evidence.connection = connection
    return evidence
  }

  /// The caller context of a record: payload-style fields (docs/log-format.md, §2).
  var context: [UInt8] {
    var fields = Payload()
    fields.append(tag: 1, unsigned: uid == nil || tokenID != nil ? 3 : flatpakApp == nil ? 1 : 2)
    if let connection { fields.append(tag: 2, unsigned: connection) }
    if let uid { fields.append(tag: 3, unsigned: UInt64(uid)) }
    if let gid { fields.append(tag: 4, unsigned: UInt64(gid)) }
    if let pid { fields.append(tag: 5, unsigned: UInt64(UInt32(bitPattern: pid))) }
    if let executable { fields.append(tag: 6, string: executable) }
    if let executableSHA256 { fields.append(tag: 7, bytes: executableSHA256) }
    if let flatpakApp { fields.append(tag: 8, string: flatpakApp) }
    if let tokenID { fields.append(tag: 9, string: tokenID) }
    if let address { fields.append(tag: 10, string: address) }
    return fields.bytes
  }

  /// Decodes a record's caller context.
  init(context bytes: RawSpan) throws(StoreError) {
    let fields = try PayloadReader(bytes: bytes)
    if try fields.unsigned(1) == 3 {
      guard let address = try fields.string(10), let tokenID = try fields.string(9) else {
        throw .malformedRecord("a token caller's context without address and token id")
      }
      self.init(address: address, tokenID: tokenID, connection: try fields.unsigned(2))
      // Over the Unix socket, the kernel's word about the process too.
      uid = try fields.unsigned(3).map { UInt32(truncatingIfNeeded: $0) }
      gid = try fields.unsigned(4).map { UInt32(truncatingIfNeeded: $0) }
      pid = try fields.unsigned(5).map { Int32(bitPattern: UInt32(truncatingIfNeeded: $0)) }
      executable = try fields.string(6)
      executableSHA256 = fields.bytes(7)
      flatpakApp = try fields.string(8)
      return
    }
    guard let uid = try fields.unsigned(3), let gid = try fields.unsigned(4), let pid = try fields.unsigned(5) else {
      throw .malformedRecord("a caller context without uid, gid and pid")
    }
    self.init(
      uid: UInt32(truncatingIfNeeded: uid), gid: UInt32(truncatingIfNeeded: gid),
      pid: Int32(bitPattern: UInt32(truncatingIfNeeded: pid)), executable: try fields.string(6),
      executableSHA256: fields.bytes(7), flatpakApp: try fields.string(8), connection: try fields.unsigned(2))
  }
}
