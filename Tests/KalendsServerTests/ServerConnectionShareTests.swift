import Foundation
import KalendsTestSupport
import Testing

/// What one caller holds of the TCP listener never locks out the others: an app's identified
/// keep-alive connections count among its own, not among what its network shares, and on loopback
/// another local user's unidentified connections count among that user's only.
@Suite("Server: connections shared fairly on one machine")
struct ServerConnectionShareTests {
  /// A Python program that opens `count` connections to `address` and, with a token, sends one
  /// keep-alive request on each and reads its answer; it prints how many it opened and how many
  /// were answered `200`, then holds them open until its standard input closes.
  static let holder = """
    import socket, sys
    host, port = sys.argv[1].rsplit(":", 1)
    count, token = int(sys.argv[2]), sys.argv[3]
    held, answered = [], 0
    for _ in range(count):
        s = socket.create_connection((host, int(port)))
        held.append(s)
        if token:
            s.sendall(("GET /v1/calendars HTTP/1.1\\r\\nHost: x\\r\\nAuthorization: Bearer " + token + "\\r\\n\\r\\n").encode())
            data = b""
            while b"\\r\\n\\r\\n" not in data:
                chunk = s.recv(65536)
                if not chunk: break
                data += chunk
            if data.startswith(b"HTTP/1.1 200"): answered += 1
    print(len(held), answered, flush=True)
    sys.stdin.read()
    """

  /// Starts the holder for `count` connections (as `user` when given); returns it once its
  /// connections are open, with what it printed.
  static func hold(
    _ address: String, count: Int, token: String, as user: String? = nil
  ) throws -> (Process, Pipe, String) {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    // Another user runs the system's Python: the person's may live in a home it cannot read.
    let python = [user == nil ? "python3" : "/usr/bin/python3", "-c", Self.holder, address, String(count), token]
    let switched = user.map { ["setpriv", "--reuid", $0, "--regid", "65534", "--clear-groups"] }
    process.arguments = (switched ?? []) + python
    let (input, output) = (Pipe(), Pipe())
    process.standardInput = input
    process.standardOutput = output
    process.standardError = FileHandle.nullDevice
    try process.run()
    var line = ""
    while !line.contains("\n") {
      let data = output.fileHandleForReading.availableData
      if data.isEmpty { break }
      line += String(decoding: data, as: UTF8.self)
    }
    return (process, input, line.trimmingCharacters(in: .whitespacesAndNewlines))
  }

  /// `GET /v1/calendars` at `address` with the app token `token`, on a connection of its own.
  static func calendars(_ address: String, token: String) throws -> (status: Int, body: String, challenge: String) {
    try ServedStore.request(
      "GET", "http://\(address)/v1/calendars", token: nil, headers: ["Authorization: Bearer \(token)"])
  }

  @Test func anAppsKeepAliveConnectionsLockNoOtherAppOut() throws {
    let served = try ServedStore(["--listen", "127.0.0.1:0"])
    let address = try #require(served.tcpAddress)
    let busy = try served.tokenApp("org.example.busy", access: ["--status", "full"])
    let other = try served.tokenApp("org.example.other", access: ["--status", "full"])
    // The busy app holds every connection an app may: 64, each identified, kept alive.
    let (holder, input, answered) = try Self.hold(address, count: 64, token: busy)
    defer {
      input.fileHandleForWriting.closeFile()
      holder.waitUntilExit()
    }
    #expect(answered == "64 64", "\(answered)")
    let reply = try Self.calendars(address, token: other)
    #expect(reply.status == 200, "another app is locked out: \(reply.status) \(reply.body)")
  }

  /// A Python program that opens `count` connections to `address` at once, then sends one
  /// request with `token` on each and prints how many were answered `200`.
  static let burst = """
    import socket, sys
    host, port = sys.argv[1].rsplit(":", 1)
    count, token = int(sys.argv[2]), sys.argv[3]
    held = [socket.create_connection((host, int(port))) for _ in range(count)]
    for s in held:
        s.sendall(("GET /v1/calendars HTTP/1.1\\r\\nHost: x\\r\\nAuthorization: Bearer " + token + "\\r\\n\\r\\n").encode())
    answered = 0
    for s in held:
        data = b""
        while b"\\r\\n\\r\\n" not in data:
            chunk = s.recv(65536)
            if not chunk: break
            data += chunk
        if data.startswith(b"HTTP/1.1 200"): answered += 1
    print(answered)
    """

  /// Runs `body` with the address of a server on loopback (request timeout 60 s) and the token of
  /// an app with full access, while this local user holds `count` connections open unidentified.
  static func whileHoldingIdle(_ count: Int, _ body: (_ address: String, _ app: String) throws -> Void) throws {
    let served = try ServedStore(["--listen", "127.0.0.1:0", "--header-timeout", "60"])
    let address = try #require(served.tcpAddress)
    let app = try served.tokenApp("org.example.app", access: ["--status", "full"])
    let (holder, input, opened) = try Self.hold(address, count: count, token: "")
    defer {
      input.fileHandleForWriting.closeFile()
      holder.waitUntilExit()
    }
    #expect(opened == "\(count) 0", "\(opened)")
    try body(address, app)
  }

  @Test func idleUnidentifiedConnectionsOfTheSameUserLockNoAppOut() throws {
    // 64 idle connections of the user: 16 are kept for the request timeout, the others for a second.
    try Self.whileHoldingIdle(64) { address, app in
      let reply = try Self.calendars(address, token: app)
      #expect(reply.status == 200, "the app is locked out: \(reply.status) \(reply.body)")
    }
  }

  @Test func aBurstOfAnAppsConnectionsIsServedBesideIdleOnes() throws {
    // The user's unidentified callers hold all they may keep; the app then opens 48 connections at
    // once, each identified by its first request within the second it is given.
    try Self.whileHoldingIdle(16) { address, app in
      let answered = try CLI.python(Self.burst, [address, "48", app]).trimmingCharacters(in: .whitespacesAndNewlines)
      #expect(answered == "48", "\(answered) of 48 answered")
    }
  }

  @Test(.enabled(if: getuid() == 0, "needs another local user: run as root"))
  func anotherLocalUsersUnidentifiedConnectionsLockNoAppOut() throws {
    let served = try ServedStore(["--listen", "127.0.0.1:0"])
    let address = try #require(served.tcpAddress)
    let app = try served.tokenApp("org.example.app", access: ["--status", "full"])
    // Another user of the machine opens connections and sends nothing.
    let (holder, input, opened) = try Self.hold(address, count: 80, token: "", as: "nobody")
    defer {
      input.fileHandleForWriting.closeFile()
      holder.waitUntilExit()
    }
    #expect(opened == "80 0", "the other user's connections: \(opened)")
    let reply = try Self.calendars(address, token: app)
    #expect(reply.status == 200, "the person's app is locked out: \(reply.status) \(reply.body)")
  }
}
