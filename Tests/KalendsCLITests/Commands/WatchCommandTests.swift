import Foundation
import Kalends
import KalendsTestSupport
import Testing

@Suite("Change notices across processes")
struct WatchCommandTests {
  /// One JSON object per line.
  func lines(_ text: String) throws -> [[String: Any]] {
    try text.split(separator: "\n").map { line in try #require(try json(String(line)) as? [String: Any]) }
  }

  @Test func aWatcherHearsAWriteByAnotherProcess() throws {
    let store = try CLIStore()
    let head = try #require(try store.object(["status"])["head"] as? Int)
    let (watcher, output, errors) = try CLI.start([
      "watch", "--store", store.directory.storePath, "--from", String(head + 1), "--limit", "1", "--format", "jsonl",
    ])
    let created = try store.object(["calendar", "create", "Work"])
    let result = CLI.finish(watcher, output, errors)
    #expect(result.status == 0, "\(result.stderr)")
    let notice = try #require(try lines(result.stdout).first)
    #expect(notice["from"] as? Int == head + 1)
    #expect(notice["origin"] as? String == "otherProcess")
    let changes = try #require(notice["changes"] as? [[String: Any]])
    #expect(changes.count == 1)
    #expect(changes.first?["entity"] as? String == "calendar")
    #expect(changes.first?["id"] as? String == created["id"] as? String)
    #expect(changes.first?["change"] as? String == "added")
  }

  @Test func catchUpThenLiveAcross10000WritesOfAnotherProcessHasNoGapOrDuplicate() async throws {
    let store = try CLIStore()
    let path = store.directory.storePath
    try #require(
      try CLI.run(["write", "--store", path, "--events", "500", "--no-sync"], program: CLI.harness).status == 0)
    let opened = try Store.open(at: path)
    let startHead = try opened.head().position
    // Bounds past the test's size: under a loaded machine the subscriber may fall far behind, and
    // this test is about positions and identities, not the "refetch everything" shortcut.
    let unbounded = ChangeStreamOptions(maxPendingRecords: 100_000, maxObjects: 100_000)
    var notices = opened.changes(from: 1, options: unbounded).makeAsyncIterator()
    let (writer, output, errors) = try CLI.start(
      ["write", "--store", path, "--events", "10000", "--no-sync"], program: CLI.harness)
    var heard: [ObjectID] = []
    var next = LogPosition(1)
    var sawOtherProcessLive = false
    // One record per save: the calendar exists already.
    let finalHead = LogPosition(startHead.rawValue + 10_000)
    while next <= finalHead {
      let notice = try #require(try await notices.next())
      #expect(notice.positions.lowerBound == next, "gap or overlap at \(notice.positions)")
      next = notice.positions.upperBound.next
      #expect(!notice.refetchAll)
      #expect(notice.isCatchUp == (notice.positions.upperBound <= startHead))
      if !notice.isCatchUp && notice.origin == .otherProcess { sawOtherProcessLive = true }
      for (object, kind) in notice.changes {
        if case .event(let id) = object, kind == .added { heard.append(id) }
      }
    }
    #expect(CLI.finish(writer, output, errors).status == 0)
    #expect(try opened.head().position == finalHead)
    let events = EventStore(store: opened)
    let calendar = try #require(try events.calendars().first { $0.title == "bench-writes" })
    let written = try events.events(inCalendar: calendar.id).map(\.id)
    #expect(written.count == 10_500)
    #expect(heard.count == written.count, "every event heard exactly once")
    #expect(Set(heard).symmetricDifference(written).isEmpty, "the events heard are the events written")
    #expect(sawOtherProcessLive)
  }

  @Test func aClientsWatchEndsWhenItsAccessIsRevoked() throws {
    let store = try CLIStore()
    try store.run([
      "client", "register", "com.example.planner", "--name", "Planner", "--usage", "calendars-full=Shows your agenda.",
    ])
    _ = try store.object(["access", "set", "com.example.planner", "--service", "calendars", "--status", "full"])
    let head = try #require(try store.object(["status"])["head"] as? Int)
    let (watcher, output, errors) = try CLI.start([
      "watch", "--store", store.directory.storePath, "--as", "com.example.planner", "--from", String(head + 1),
      "--format", "jsonl",
    ])
    _ = try store.object(["calendar", "create", "Work"])
    // The watcher hears the calendar before the revoke: wait for its line, then revoke.
    let firstLine = output.fileHandleForReading.availableLine()
    #expect(firstLine.contains("\"calendar\""), "\(firstLine)")
    _ = try store.object(["access", "set", "com.example.planner", "--service", "calendars", "--status", "denied"])
    let result = CLI.finish(watcher, output, errors)
    #expect(result.status == 68, "\(result.stdout) \(result.stderr)")
    #expect(result.stderr.contains("session"), "\(result.stderr)")
  }

  @Test func aClientThatMayHearNothingIsRefusedAndTheRefusalRecorded() throws {
    let store = try CLIStore()
    try store.register("com.example.planner")
    try store.object(["access", "set", "com.example.planner", "--service", "calendars", "--status", "write-only"])
    let watched = try store.run(["watch", "--as", "com.example.planner", "--limit", "1"])
    #expect(watched.status == 68 && watched.stderr.contains("hear of changes"), "\(watched.stderr)")
    let refusals = try store.objects(["audit", "history", "--client", "com.example.planner", "--format", "json"])
      .filter { $0["kind"] as? String == "accessAttemptRefused" }
    #expect(refusals.map { $0["operation"] as? String } == ["hear of changes"])
  }

  @Test func statusShowsHowFarASavedCursorIsBehind() throws {
    let store = try CLIStore()
    _ = try store.object(["calendar", "create", "Work"])
    let watched = try store.run(["watch", "--cursor", "mirror", "--from", "1", "--limit", "1", "--format", "jsonl"])
    #expect(watched.status == 0, "\(watched.stderr)")
    let to = try #require(try lines(watched.stdout).first?["to"] as? Int)
    _ = try store.object(["calendar", "create", "Home"])
    _ = try store.object(["calendar", "create", "Trips"])
    let status = try store.object(["status"])
    let cursor = try #require((status["cursors"] as? [[String: Any]])?.first)
    #expect(cursor["name"] as? String == "mirror")
    #expect(cursor["position"] as? Int == to)
    #expect(cursor["behindRecords"] as? Int == 2)
    // Resuming from the cursor hears exactly the two calendars made since.
    let resumed = try store.run(["watch", "--cursor", "mirror", "--limit", "1", "--format", "jsonl"])
    let notice = try #require(try lines(resumed.stdout).first)
    #expect(notice["from"] as? Int == to + 1)
    #expect((notice["changes"] as? [[String: Any]])?.count == 2)
    #expect(try store.run(["watch", "--cursor", "../escape", "--limit", "1"]).status == 65)
  }
}

extension FileHandle {
  /// Reads byte by byte up to the first newline (or the end).
  func availableLine() -> String {
    var bytes: [UInt8] = []
    while true {
      let chunk = readData(ofLength: 1)
      guard let byte = chunk.first, byte != 0x0A else { break }
      bytes.append(byte)
    }
    return String(decoding: bytes, as: UTF8.self)
  }
}
