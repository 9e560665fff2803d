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
    // Read to its end: `/proc` lists a size of 0, and a read by size (`String(contentsOfFile:)`)
    // gets only the first page of a table longer than one.
    guard let data = try? FileHandle(forReadingAtPath: table)?.readToEnd() else { return nil }
    let text = String(decoding: data, as: UTF8.self)
    let wanted = (String(format: ":%04X", peer), String(format: ":%04X", local))
    for line in text.split(separator: "\n").dropFirst() {
      // sl local_address rem_address st tx_queue:rx_queue tr:tm->when retrnsmt uid …
      let fields = line.split(separator: " ", omittingEmptySubsequences: true)
      guard fields.count > 7, fields[1].hasSuffix(wanted.0), fields[2].hasSuffix(wanted.1) else { continue }
      return UInt32(fields[7])
    }
    return nil
  }
}
