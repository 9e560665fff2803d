import Foundation

/// The local user at the other end of a loopback TCP connection, as the kernel lists its sockets
/// (`/proc/net/tcp` and `/proc/net/tcp6`: each socket's addresses and its owner's uid).
///
/// Every local user reaches the listener from one address, so counting loopback connections by
/// address lets one user's connections crowd out every other's; counted by their owner's uid, a
/// user without a token holds only its own share. The answer is a grouping key, never an
/// identification: a token still says which app a connection is.
enum LoopbackPeer {
  /// The uid owning the client socket of the connection from port `peer` to port `local` on
  /// loopback; `nil` when no such socket is listed (it closed meanwhile, or `/proc` is not there).
  static func uid(peerPort peer: Int, localPort local: Int) -> UInt32? {
    for table in ["/proc/net/tcp", "/proc/net/tcp6"] {
      if let uid = uid(in: table, peerPort: peer, localPort: local) { return uid }
    }
    return nil
  }

  /// The uid column of the row of `table` whose local port is `peer` and remote port `local`.
  static func uid(in table: String, peerPort peer: Int, localPort local: Int) -> UInt32? {
    guard let text = contents(of: table) else { return nil }
    let wanted = (String(format: ":%04X", peer), String(format: ":%04X", local))
    for line in text.split(separator: "\n").dropFirst() {
      // sl local_address rem_address st tx_queue:rx_queue tr:tm->when retrnsmt uid …
      let fields = line.split(separator: " ", omittingEmptySubsequences: true)
      guard fields.count > 7, fields[1].hasSuffix(wanted.0), fields[2].hasSuffix(wanted.1) else { continue }
      return UInt32(fields[7])
    }
    return nil
  }

  /// The text of a `/proc` file, read to its end (its size is listed as 0, so a read by size reads
  /// nothing).
  static func contents(of path: String) -> String? {
    let descriptor = open(path, O_RDONLY | O_CLOEXEC)
    guard descriptor >= 0 else { return nil }
    defer { close(descriptor) }
    var bytes: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 64 * 1024)
    while true {
      let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
      if count < 0 && errno == EINTR { continue }
      guard count > 0 else { break }
      bytes += buffer[..<count]
    }
    return String(decoding: bytes, as: UTF8.self)
  }
}
