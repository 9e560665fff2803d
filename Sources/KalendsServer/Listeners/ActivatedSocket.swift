import Foundation
import KalendsFormats
import Platform

/// The listening socket a service manager handed the server (systemd's socket activation,
/// `sd_listen_fds(3)`): when `LISTEN_PID` names this process and `LISTEN_FDS` is 1, file
/// descriptor 3 is a bound, listening stream socket.
///
/// The server takes only what it would have made itself: a Unix stream socket bound to a path
/// that is a socket file owned by the server's user with no permission for anyone else (`0600`,
/// `SocketMode=0600` in the `.socket` unit, whose default is `0666`). Peers of another user are
/// refused by their credentials anyway; the mode keeps them from connecting at all, as on a socket
/// the server binds. Anything else is refused at start with the setting to change.
struct ActivatedSocket {
  /// The first descriptor a service manager passes (`SD_LISTEN_FDS_START`).
  static let firstDescriptor: CInt = 3

  /// The listening socket's descriptor.
  let descriptor: CInt
  /// The path the socket is bound to.
  let path: String

  /// The socket handed to this process, or nil when none was (no `LISTEN_PID`, or another
  /// process's). Removes `LISTEN_PID`, `LISTEN_FDS` and `LISTEN_FDNAMES` from the environment, as
  /// `sd_listen_fds(1)` does, so that processes the server starts do not take them for theirs, and
  /// marks the descriptor close-on-exec.
  static func inherited() throws -> ActivatedSocket? {
    let environment = ProcessInfo.processInfo.environment
    guard let pid = environment["LISTEN_PID"].flatMap({ pid_t($0) }), pid == getpid() else { return nil }
    defer { for name in ["LISTEN_PID", "LISTEN_FDS", "LISTEN_FDNAMES"] { unsetenv(name) } }
    guard let count = environment["LISTEN_FDS"].flatMap({ Int($0) }), count > 0 else { return nil }
    guard count == 1 else {
      throw ServerError(
        message:
          "socket activation handed \(count) sockets: kalends serve takes one Unix socket (--listen binds TCP itself)",
        category: .usage)
    }
    let descriptor = firstDescriptor
    _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC)
    guard integerOption(SO_TYPE, of: descriptor) == CInt(SOCK_STREAM.rawValue),
      integerOption(SO_ACCEPTCONN, of: descriptor) == 1
    else {
      throw ServerError(
        message: "socket activation handed descriptor 3, which is not a listening stream socket (ListenStream=)",
        category: .usage)
    }
    guard let path = boundPath(of: descriptor) else {
      throw ServerError(
        message:
          "socket activation handed a socket not bound to a Unix socket path (ListenStream=%t/kalends/kalends.sock)",
        category: .usage)
    }
    guard let info = FileStatus(path: path, followingLinks: false), info.isSocket, info.owner == getuid(),
      info.sharedPermissions == 0
    else {
      throw ServerError(
        message:
          "\(path) must be a socket of this user that no one else may open: set SocketMode=0600 in the .socket unit",
        category: .usage)
    }
    return ActivatedSocket(descriptor: descriptor, path: path)
  }

  /// An integer socket option at `SOL_SOCKET`, or nil when `descriptor` has none (not a socket).
  private static func integerOption(_ option: CInt, of descriptor: CInt) -> CInt? {
    var value: CInt = 0
    var length = socklen_t(MemoryLayout<CInt>.size)
    return getsockopt(descriptor, SOL_SOCKET, option, &value, &length) == 0 ? value : nil
  }

  /// The path a Unix socket is bound to; nil for another family, an unbound or an abstract socket.
  private static func boundPath(of descriptor: CInt) -> String? {
    var address = sockaddr_un()
    var length = socklen_t(MemoryLayout<sockaddr_un>.size)
    let named = withUnsafeMutablePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor, $0, &length) == 0 }
    }
    guard named, address.sun_family == sa_family_t(AF_UNIX) else { return nil }
    let offset = MemoryLayout<sockaddr_un>.offset(of: \.sun_path)!
    let pathLength = Int(length) - offset
    guard pathLength > 1 else { return nil }
    return withUnsafeBytes(of: address.sun_path) { bytes in
      let path = bytes.prefix(pathLength)
      guard let first = path.first, first != 0 else { return nil }
      return String(decoding: path.prefix { $0 != 0 }, as: UTF8.self)
    }
  }
}
