import Foundation
import KalendsTestSupport
import Testing

/// SIGKILL of the store server while apps write through it: every write it acknowledged is in the
/// store after the restart, the store verifies, and the apps reconnect.
@Suite("The store server loses no acknowledged write")
struct ServerCrashTests {
  /// A writer app: saves events through the socket over one connection (reconnecting when it
  /// breaks), appending the id of each acknowledged (201) event to its file, until its deadline.
  static let writer = """
    import json, socket, sys, time
    path, calendar, acks, deadline = sys.argv[1], sys.argv[2], open(sys.argv[3], "a"), time.monotonic() + float(sys.argv[4])
    n, conn, reader = 0, None, None
    while time.monotonic() < deadline:
        try:
            if conn is None:
                conn = socket.socket(socket.AF_UNIX); conn.connect(path); reader = conn.makefile("rb")
            n += 1
            body = json.dumps({"calendarId": calendar, "title": f"w{sys.argv[5]}-{n}", "start": "2026-05-04"}).encode()
            conn.sendall(b"POST /v1/events HTTP/1.1\\r\\nHost: kalends\\r\\nContent-Type: application/json\\r\\n"
                         + f"Content-Length: {len(body)}\\r\\n\\r\\n".encode() + body)
            status = int(reader.readline().split()[1]); length = 0
            while True:
                line = reader.readline()
                if line in (b"\\r\\n", b""): break
                if line.lower().startswith(b"content-length:"): length = int(line.split(b":")[1])
            answer = reader.read(length)
            if status == 201 and len(answer) == length:
                acks.write(json.loads(answer)["id"] + "\\n"); acks.flush()
        except (OSError, ValueError, IndexError):
            # The server is down (killed, restarting): try again shortly, as an app would.
            conn = None; time.sleep(0.02)
    """

  @Test func sigkillDuringSixteenWritersLosesNothingAcknowledged() throws {
    let served = try ServedStore()
    let python = try CLI.run(
      ["python3", "-c", "import os,sys; print(os.path.realpath(sys.executable))"],
      program: URL(fileURLWithPath: "/usr/bin/env")
    ).stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    try served.store.object([
      "client", "register", "com.example.writer", "--name", "Writer", "--usage", "calendars-full=Books.",
      "--executable", python, "--allow-interpreter",
    ])
    try served.store.object(["access", "set", "com.example.writer", "--service", "calendars", "--status", "full"])
    let calendar = try served.store.calendar("Bookings")
    let directory = served.store.directory.path
    let writers = try (0..<16).map { index in
      try CLI.start(
        ["python3", "-c", Self.writer, served.socket, calendar, "\(directory)/acks-\(index)", "4", "\(index)"],
        program: URL(fileURLWithPath: "/usr/bin/env"))
    }
    // The kill comes once every writer has had a save acknowledged: mid-stream for all 16.
    let deadline = Date().addingTimeInterval(30)
    while Date() < deadline,
      !(0..<16).allSatisfy({ index in
        ((try? String(contentsOfFile: "\(directory)/acks-\(index)", encoding: .utf8)) ?? "").contains("\n")
      })
    {
      Thread.sleep(forTimeInterval: 0.01)
    }
    served.kill()
    try served.restart()
    let atRestart = try Self.position(served.store.head())
    for (process, output, errors) in writers {
      let result = CLI.finish(process, output, errors)
      #expect(result.status == 0, "\(result.stderr)")
    }

    var acknowledged: [String] = []
    for index in 0..<16 {
      let text = (try? String(contentsOfFile: "\(directory)/acks-\(index)", encoding: .utf8)) ?? ""
      acknowledged += text.split(separator: "\n").map(String.init)
    }
    #expect(acknowledged.count > 16, "the writers wrote before and after the kill")
    let stored = Set(try served.store.objects(["event", "list"]).compactMap { $0["id"] as? String })
    let lost = acknowledged.filter { !stored.contains($0) }
    #expect(lost.isEmpty, "\(lost.count) of \(acknowledged.count) acknowledged writes are missing")
    let verified = try served.store.run(["verify"])
    #expect(verified.status == 0, "\(verified.stdout) \(verified.stderr)")
    // The writers reconnected and wrote after the restart.
    #expect(try Self.position(served.store.head()) > atRestart)
  }

  /// The position `log head` prints first.
  static func position(_ head: String) throws -> Int {
    try #require(Int(head.split(separator: " ").first ?? ""))
  }
}
