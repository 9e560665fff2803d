import Foundation
import Testing

/// The store server's bounds: a slow client is closed, many connections and oversized bodies do not
/// stop it from answering others.
@Suite("The store server keeps answering under abuse")
struct ServerBoundsTests {
  /// Runs Python `code` with `arguments`; its standard output.
  static func python(_ code: String, _ arguments: [String]) throws -> String {
    let result = try CLI.run(["python3", "-c", code] + arguments, program: URL(fileURLWithPath: "/usr/bin/env"))
    try #require(result.status == 0, "\(result.stderr)")
    return result.stdout
  }

  /// Opens a connection, sends a request line and then one header byte every 0.2 s; prints how
  /// many seconds passed until the server closed the connection (or 30 when it never did).
  static let slowloris = """
    import socket, sys, time
    s = socket.socket(socket.AF_UNIX); s.connect(sys.argv[1])
    s.sendall(b"GET /v1/whoami HTTP/1.1\\r\\nHost: kalends\\r\\nX-Slow: ")
    start = time.monotonic()
    try:
        while time.monotonic() - start < 30:
            s.sendall(b"a"); time.sleep(0.2)
            s.setblocking(False)
            try:
                if s.recv(1) == b"": break
            except BlockingIOError: pass
            s.setblocking(True)
    except OSError: pass
    print(round(time.monotonic() - start, 2))
    """

  @Test func aClientSendingItsHeadersSlowlyIsClosedWhileOthersAreAnswered() throws {
    let served = try ServedStore(["--header-timeout", "1"])
    let agenda = try served.app("agenda")
    try served.register("com.example.agenda", executable: agenda)
    let (slow, output, errors) = try CLI.start(
      ["python3", "-c", Self.slowloris, served.socket], program: URL(fileURLWithPath: "/usr/bin/env"))
    // Others are answered while the slow client holds its connection.
    for _ in 0..<3 {
      #expect(try served.get("/v1/whoami", by: agenda).status == 200)
    }
    let result = CLI.finish(slow, output, errors)
    let seconds = try #require(Double(result.stdout.trimmingCharacters(in: .whitespacesAndNewlines)))
    #expect(seconds >= 0.8 && seconds < 5, "closed after \(seconds) s")
  }

  /// Holds many idle connections open, and sends an oversized body.
  @Test func manyConnectionsAndAnOversizedBodyLeaveTheServerAnswering() throws {
    let served = try ServedStore()
    let agenda = try served.app("agenda")
    try served.register("com.example.agenda", executable: agenda)
    let holder = """
      import socket, sys, time
      held = []
      for _ in range(200):
          s = socket.socket(socket.AF_UNIX); s.connect(sys.argv[1]); held.append(s)
      print("held", flush=True)
      time.sleep(float(sys.argv[2]))
      """
    let (process, output, _) = try CLI.start(
      ["python3", "-c", holder, served.socket, "5"], program: URL(fileURLWithPath: "/usr/bin/env"))
    defer {
      kill(process.processIdentifier, SIGKILL)
      process.waitUntilExit()
    }
    var announced = ""
    while !announced.contains("held") {
      let data = output.fileHandleForReading.availableData
      if data.isEmpty { break }
      announced += String(decoding: data, as: UTF8.self)
    }
    #expect(announced.contains("held"))
    #expect(try served.get("/v1/whoami", by: agenda).status == 200, "answered beside 200 idle connections")

    let calendar = try served.store.calendar("Work")
    try served.store.object(["access", "set", "com.example.agenda", "--service", "calendars", "--status", "full"])
    let head = try served.store.head()
    let huge =
      #"{"calendarId":"\#(calendar)","title":"\#(String(repeating: "x", count: 70_000))","start":"2026-03-04"}"#
    let oversized = try served.call("POST", "/v1/events", by: agenda, body: huge)
    #expect(oversized.status == 413)
    #expect(try served.store.head() == head, "nothing written")
    #expect(try served.get("/v1/whoami", by: agenda).status == 200)
  }
}
