import Foundation
import KalendsTestSupport
import Testing

/// Change notices through the store server: Server-Sent Events, resumable after the token of a read
/// or of the last notice heard, and a session that ends when the app's access is changed from
/// outside.
@Suite("The store server streams change notices")
struct ServerChangeTests {
  /// Reads `handle` until `text` has appeared, or `seconds` pass; what was read.
  static func read(_ handle: FileHandle, until text: String, seconds: Double = 10) -> String {
    var received = ""
    let deadline = Date().addingTimeInterval(seconds)
    while !received.contains(text) {
      let left = deadline.timeIntervalSinceNow
      guard left > 0 else { break }
      // Waits for data without blocking past the deadline.
      var entry = pollfd(fd: handle.fileDescriptor, events: Int16(POLLIN), revents: 0)
      guard poll(&entry, 1, Int32(left * 1000) + 1) > 0 else { break }
      let data = handle.availableData
      if data.isEmpty { break }
      received += String(decoding: data, as: UTF8.self)
    }
    return received
  }

  /// The `data:` objects of the events named `event` in an event stream.
  static func events(_ event: String, in stream: String) throws -> [(id: String?, data: [String: Any])] {
    try stream.components(separatedBy: "\n\n").compactMap { block in
      let lines = block.split(separator: "\n").map(String.init)
      guard lines.contains("event: \(event)"), let data = lines.first(where: { $0.hasPrefix("data: ") }) else {
        return nil
      }
      let id = lines.first { $0.hasPrefix("id: ") }.map { String($0.dropFirst(4)) }
      return (id, try #require(try json(String(data.dropFirst(6))) as? [String: Any]))
    }
  }

  @Test func anAppHearsChangesAndResumesAfterTheLastItHeard() throws {
    let served = try ServedStore()
    let agenda = try served.app("agenda")
    try served.register("com.example.agenda", executable: agenda)
    try served.store.object(["access", "set", "com.example.agenda", "--service", "calendars", "--status", "full"])
    let calendar = try served.store.calendar("Work")
    // The stream starts after what the app read: the read's Kalends-Position token.
    let read = try served.exchange("GET", "/v1/calendars", by: agenda)
    #expect(read.status == 200 && read.position.count == 64, "\(read)")

    let (stream, output, _) = try CLI.start(
      ["-N", "-s", "--unix-socket", served.socket, "http://kalends/v1/changes?after=\(read.position)"],
      program: URL(fileURLWithPath: agenda))
    defer {
      kill(stream.processIdentifier, SIGKILL)
      stream.waitUntilExit()
    }
    let first = try served.store.object([
      "event", "add", "--calendar", calendar, "--title", "Standup", "--start", "2026-03-02T09:00:00", "--end",
      "2026-03-02T09:15:00",
    ])
    let firstID = try #require(first["id"] as? String)
    let heard = Self.read(output.fileHandleForReading, until: firstID)
    #expect(heard.contains(firstID), "heard: \(heard)")
    let notices = try Self.events("changes", in: heard)
    let notice = try #require(notices.last)
    let changes = try #require(notice.data["changes"] as? [[String: Any]])
    #expect(changes.contains { $0["id"] as? String == firstID && $0["change"] as? String == "added" })
    let lastHeard = try #require(notice.id)

    // A second event while nobody listens; resuming after the last id heard brings it, and only it.
    let second = try served.store.object([
      "event", "add", "--calendar", calendar, "--title", "Review", "--start", "2026-03-03T09:00:00", "--end",
      "2026-03-03T10:00:00",
    ])
    let secondID = try #require(second["id"] as? String)
    let resumed = try CLI.run(
      [
        "-N", "-s", "--max-time", "2", "--unix-socket", served.socket, "-H", "Last-Event-ID: \(lastHeard)",
        "http://kalends/v1/changes",
      ], program: URL(fileURLWithPath: agenda))
    let caught = try Self.events("changes", in: resumed.stdout)
    let ids = caught.flatMap { ($0.data["changes"] as? [[String: Any]] ?? []).compactMap { $0["id"] as? String } }
    #expect(ids.contains(secondID))
    #expect(!ids.contains(firstID))
    #expect(caught.allSatisfy { $0.id != nil && $0.id != lastHeard && $0.id == $0.data["position"] as? String })
  }

  @Test func revokingAccessEndsTheStreamAndTheAppsLaterCalls() throws {
    let served = try ServedStore()
    let agenda = try served.app("agenda")
    try served.register("com.example.agenda", executable: agenda)
    try served.store.object(["access", "set", "com.example.agenda", "--service", "calendars", "--status", "full"])
    // One process: the stream, then (after it ends) a second call.
    let (process, output, _) = try CLI.start(
      [
        "-N", "-s", "--unix-socket", served.socket, "http://kalends/v1/changes", "-w", "\n%{http_code}\n",
        "http://kalends/v1/whoami",
      ], program: URL(fileURLWithPath: agenda))
    defer {
      kill(process.processIdentifier, SIGKILL)
      process.waitUntilExit()
    }
    // The stream says when it is open (an SSE comment).
    let opened = Self.read(output.fileHandleForReading, until: ": open")
    #expect(opened.contains(": open"))
    let revoked = try served.store.run([
      "access", "set", "com.example.agenda", "--service", "calendars", "--status", "denied",
    ])
    #expect(revoked.status == 0, "\(revoked.stderr)")
    let decided = Date()
    let heard = Self.read(output.fileHandleForReading, until: "sessionEnded")
    let latency = Date().timeIntervalSince(decided)
    let ended = try Self.events("sessionEnded", in: opened + heard)
    #expect(ended.count == 1)
    #expect(ended.first?.data["client"] as? String == "com.example.agenda")
    #expect(latency < 0.5, "the stream ended \(Int(latency * 1000)) ms after the decision")
    // The same process's next call is refused: its session ended, as EventKit's app is killed.
    let rest = Self.read(output.fileHandleForReading, until: "restart it", seconds: 5)
    #expect((heard + rest).contains("\"status\":401"))
    // A new process of the app gets its new status.
    let status = try served.get("/v1/authorization/calendars", by: agenda)
    #expect((status.body as? [String: Any])?["status"] as? String == "denied")
  }
}
