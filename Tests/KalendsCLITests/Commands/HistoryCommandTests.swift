import Foundation
import KalendsTestSupport
import Testing

/// `history` and `restore` as a person types them: a removed event found by the start of its id,
/// brought back as it was, an earlier version chosen; erased content refused.
@Suite("Command line: history and restore")
struct HistoryCommandTests {
  /// The positions of the records whose payload's `id` is `id`, read through `log tail`'s generic
  /// decoder: the oracle of what `history` lists.
  static func positionsNaming(_ id: String, in store: CLIStore) throws -> [Int] {
    try store.objects(["log", "tail", "-n", "1000"]).compactMap { record in
      let payload = record["payload"] as? [String: Any]
      guard (payload?["id"] as? String)?.uppercased() == id.uppercased() else { return nil }
      return record["position"] as? Int
    }.sorted()
  }

  @Test func aRemovedEventComesBackAndAnEarlierVersionToo() throws {
    let store = try CLIStore()
    let tz = ["TZ": "Europe/Berlin"]
    _ = try store.calendar("Work")
    let added = try store.object(
      ["event", "add", "--calendar", "Work", "--title", "Dentist", "--start", "2026-12-01 10:00"], environment: tz)
    let id = try #require(added["id"] as? String)
    let prefix = String(id.prefix(8))
    _ = try store.object(["event", "update", prefix, "--title", "Dentist (moved)", "--start", "2026-12-01 11:00"])
    #expect(try store.run(["event", "remove", prefix]).status == 0)
    #expect(try store.run(["event", "show", prefix]).status == 66, "removed: not found by its prefix")

    let history = try store.objects(["event", "history", prefix])
    #expect(history.compactMap { $0["version"] as? Int } == (try Self.positionsNaming(id, in: store)))
    #expect(history.compactMap { $0["action"] as? String } == ["created", "modified", "removed"])
    let titles = history.map { ($0["state"] as? [String: Any])?["title"] as? String }
    #expect(titles == ["Dentist", "Dentist (moved)", nil])
    #expect(history.allSatisfy { ($0["actor"] as? [String: Any])?["type"] as? String == "person" })
    // What each save changed: the move changed the title and the times, nothing else.
    let changed = history.map { $0["changed"] as? [String] }
    #expect(Set(changed[1] ?? []) == ["title", "start", "end"], "\(changed)")
    #expect(changed[2] == nil, "a removal leaves no state")
    let changes = try store.run(["event", "history", prefix])
    #expect(
      changes.stdout.contains("title, start, end") || changes.stdout.contains("start, end, title"), "\(changes.stdout)")

    // Without --version a removed event comes back as it was last saved, under its id.
    let restored = try store.object(["event", "restore", prefix])
    #expect(restored["id"] as? String == id && restored["title"] as? String == "Dentist (moved)")
    #expect(restored["start"] as? String == "2026-12-01T11:00:00+01:00")
    #expect(try store.object(["event", "show", prefix])["title"] as? String == "Dentist (moved)")
    let first = try #require(history.first?["version"] as? Int)
    let earlier = try store.object(["event", "restore", prefix, "--version", "\(first)"])
    #expect(earlier["title"] as? String == "Dentist" && earlier["start"] as? String == "2026-12-01T10:00:00+01:00")
    let table = try store.run(["event", "history", id])
    #expect(table.status == 0 && table.stdout.contains("created (restored from \(history[1]["version"] as? Int ?? 0))"))

    // A version of something else, and erased content, are refused and write nothing.
    let calendarVersion = try #require(try store.objects(["calendar", "history", "Work"]).first?["version"] as? Int)
    var head = try store.head()
    let foreign = try store.run(["event", "restore", id, "--version", "\(calendarVersion)"])
    #expect(foreign.status == 66 && foreign.stderr.contains("is not a version of"), "\(foreign.stderr)")
    #expect(try store.run(["erase", "event", id]).status == 0)
    head = try store.head()
    let erased = try store.run(["event", "restore", prefix, "--version", "\(first)"])
    #expect(erased.status == 67 && erased.stderr.contains("was erased"), "\(erased.stderr)")
    let nothingLeft = try store.run(["event", "restore", prefix])
    #expect(nothingLeft.status == 67, "\(nothingLeft.stderr)")
    #expect(try store.head() == head)
    let after = try store.objects(["event", "history", prefix])
    #expect(after.last?["action"] as? String == "contentErased")
    #expect(after.allSatisfy { $0["state"] is NSNull })
  }

  /// `kalends removed` lists what was removed lately and not brought back, newest first, as
  /// Calendar's "Recently Deleted" does; an item removed with its calendar is not listed.
  @Test func recentlyRemovedEventsAndRemindersAreListedToBringBack() throws {
    let store = try CLIStore()
    _ = try store.calendar("Work")
    _ = try store.calendar("Trip")
    _ = try store.calendar("Errands", ["--reminders"])
    func add(_ title: String, to calendar: String) throws -> String {
      try #require(
        try store.object(["event", "add", "--calendar", calendar, "--title", title, "--start", "2026-12-01 10:00"])[
          "id"]
          as? String)
    }
    let dentist = try add("Dentist", to: "Work")
    let standup = try add("Standup", to: "Work")
    _ = try add("Flight", to: "Trip")
    let milk = try #require(
      try store.object(["reminder", "add", "--calendar", "Errands", "--title", "Buy milk"])["id"] as? String)
    #expect(try store.run(["event", "remove", dentist]).status == 0)
    #expect(try store.run(["reminder", "remove", milk]).status == 0)
    #expect(try store.run(["event", "remove", standup]).status == 0)
    #expect(try store.run(["event", "restore", standup]).status == 0)
    #expect(try store.run(["calendar", "remove", "Trip"]).status == 0)

    let removed = try store.objects(["removed", "--format", "json"])
    #expect(removed.compactMap { $0["title"] as? String } == ["Buy milk", "Dentist"], "\(removed)")
    #expect(removed.compactMap { $0["kind"] as? String } == ["reminder", "event"])
    let table = try store.run(["removed"])
    #expect(table.status == 0 && table.stdout.contains("Dentist") && table.stdout.contains("Work"), "\(table.stdout)")
    // Brought back, it is no longer listed; an app may not list them.
    #expect(try store.run(["event", "restore", dentist]).status == 0)
    #expect(try store.objects(["removed", "--format", "json"]).compactMap { $0["title"] as? String } == ["Buy milk"])
    try store.register("com.example.planner")
    #expect(try store.run(["removed", "--as", "com.example.planner"]).status == 68)
  }

  @Test func aReminderAndAContactComeBack() throws {
    let store = try CLIStore()
    _ = try store.calendar("Errands", ["--reminders"])
    let milk = try store.object([
      "reminder", "add", "--calendar", "Errands", "--title", "Buy milk", "--due", "2026-12-01",
    ])
    let milkID = try #require(milk["id"] as? String)
    #expect(try store.run(["reminder", "remove", milkID]).status == 0)
    #expect(try store.object(["reminder", "restore", String(milkID.prefix(6))])["title"] as? String == "Buy milk")
    let ada = try store.object(["contact", "add", "--given", "Ada", "--family", "Lovelace"])
    let adaID = try #require(ada["id"] as? String)
    #expect(try store.run(["contact", "remove", adaID]).status == 0)
    let back = try store.object(["contact", "restore", adaID])
    #expect(back["givenName"] as? String == "Ada")
    let versions = try store.objects(["contact", "history", adaID])
    #expect(versions.compactMap { $0["action"] as? String } == ["created", "removed", "created"])
    #expect(versions.last?["restoredFrom"] as? Int == versions.first?["version"] as? Int)
  }
}
