import Foundation
import KalendsTestSupport
import Testing

@Suite("Command line: demo")
struct DemoCommandTests {
  @Test func theDemoBuildsAnAuditableStoreAndCanRunAgain() throws {
    let directory = TemporaryDirectory("demo")
    let store = ["--store", directory.storePath]
    let first = try CLI.run(["demo"] + store)
    #expect(first.status == 0, "\(first.stderr)")
    // The timeline in words, as `kalends audit history` prints it: the same records, and the
    // social app's refused reads counted as it made them (25), logged or still pending.
    #expect(first.stdout.contains("missingUsageDescription") && first.stdout.contains("by policy “family-mdm”"))
    let printed = try #require(
      first.stdout.components(separatedBy: "Privacy timeline").last?
        .components(separatedBy: "Current state").first)
    let table = try CLI.run(["audit", "history"] + store).stdout
    func positions(_ text: String) -> [Int] {
      text.split(separator: "\n").compactMap { Int($0.split(separator: " ").first ?? "") }
    }
    #expect(!positions(printed).isEmpty && positions(printed) == positions(table))
    let refused = printed.split(separator: "\n").filter { $0.contains("Social") && $0.contains("was refused") }
    let tries = refused.map { line -> Int in
      guard let range = line.range(of: #"refused (\d+) times"#, options: .regularExpression) else { return 1 }
      return Int(line[range].split(separator: " ")[1]) ?? 0
    }
    #expect(tries.reduce(0, +) == 25, "\(refused)")
    let state = try #require(
      try json(try CLI.run(["audit", "state", "--format", "json"] + store).stdout) as? [[String: Any]])
    func status(_ client: String, _ service: String) -> String? {
      state.first { $0["client"] as? String == client && $0["service"] as? String == service }?["status"] as? String
    }
    #expect(status("com.example.planner", "calendars") == "denied")
    #expect(status("org.example.school", "calendars") == "restricted")
    #expect(status("com.example.notes", "reminders") == "notDetermined")
    #expect(status("com.example.social", "calendars") == "denied")
    // Apps built for older systems: the iOS 5 diary was asked for on its first read; the iOS 16
    // bookings app's requestAccess(to:) got the write-only prompt.
    #expect(status("com.example.diary", "calendars") == "fullAccess")
    #expect(status("com.example.bookings", "calendars") == "writeOnly")
    let audited = try #require(
      try json(try CLI.run(["audit", "history", "--format", "json"] + store).stdout) as? [[String: Any]])
    let diaryRequest = audited.first {
      $0["client"] as? String == "com.example.diary" && $0["kind"] as? String == "accessRequested"
    }
    #expect(diaryRequest?["implicit"] as? Bool == true)
    // Contacts: limited to two chosen contacts (and its own); a picked contact without access; one
    // calendar only.
    #expect(status("com.example.messages", "contacts") == "limited")
    let messages = state.first {
      $0["client"] as? String == "com.example.messages" && $0["service"] as? String == "contacts"
    }
    #expect((messages?["chosen"] as? [String])?.count == 3, "the two chosen, and the one it added")
    #expect(status("com.example.rides", "contacts") == "notDetermined")
    #expect(
      audited.contains { $0["kind"] as? String == "contactPicked" && $0["client"] as? String == "com.example.rides" })
    let worktime = state.first {
      $0["client"] as? String == "com.example.worktime" && $0["service"] as? String == "calendars"
    }
    #expect(worktime?["status"] as? String == "fullAccess" && (worktime?["chosen"] as? [String])?.count == 1)
    let seen = try CLI.run(["contact", "list", "--as", "com.example.messages", "--format", "json"] + store)
    #expect((try json(seen.stdout) as? [Any])?.count == 3, "two chosen contacts and its own")
    #expect(first.stdout.contains("with the contact picker") && first.stdout.contains("chosen by the person"))
    // The agenda went through the store server as a real process: identified by its binary, the
    // person's answer let it read; its copy changed by one byte was refused and recorded.
    #expect(status("com.example.agenda", "calendars") == "fullAccess")
    #expect(first.stdout.contains("== week of 2026-03-30"), "\(first.stdout)")
    let history = try #require(
      try json(try CLI.run(["audit", "history", "--client", "com.example.agenda", "--format", "json"] + store).stdout)
        as? [[String: Any]])
    let request = try #require(history.first { $0["kind"] as? String == "accessRequested" })
    let caller = try #require(request["caller"] as? [String: Any])
    #expect(caller["identifiedBy"] as? String == "executable")
    #expect((caller["executable"] as? String)?.hasSuffix("/kalends-agenda") == true)
    // Thunderbird over CalDAV and TCP: its first look at the calendars asked the person, who gave it
    // Work only; it saw that calendar alone and stored an event there, identified by its token.
    #expect(first.stdout.contains("it sees Work\n"), "\(first.stdout)")
    #expect(first.stdout.contains("PUT of an event under a name of its own: 201"), "\(first.stdout)")
    #expect(first.stdout.contains("the other calendars stay out of its sight: none listed"), "\(first.stdout)")
    let thunderbird = try #require(
      try json(
        try CLI.run(["audit", "history", "--client", "org.mozilla.thunderbird", "--format", "json"] + store).stdout)
        as? [[String: Any]])
    let asked = try #require(thunderbird.first { $0["kind"] as? String == "accessRequested" })
    #expect((asked["caller"] as? [String: Any])?["identifiedBy"] as? String == "token", "\(asked)")
    let worked = try #require(
      try json(
        try CLI.run(["log", "tail", "-n", "100000", "--format", "json"] + store).stdout) as? [[String: Any]])
    #expect(
      worked.contains {
        $0["kind"] as? String == "eventSaved"
          && (($0["actor"] as? [String: Any])?["id"] as? String) == "org.mozilla.thunderbird"
      },
      "the event Thunderbird stored is its fact")
    // The birthdays app through the server: limited to two contacts, then handed a third by the
    // picker, which the person's contactPicked records.
    #expect(status("com.example.birthdays", "contacts") == "limited")
    #expect(first.stdout.contains("== birthdays (limited access, 2 contacts)"), "\(first.stdout)")
    #expect(first.stdout.contains("picked: "), "\(first.stdout)")
    let birthdays = try #require(
      try json(
        try CLI.run(["audit", "history", "--client", "com.example.birthdays", "--format", "json"] + store).stdout)
        as? [[String: Any]])
    #expect(birthdays.contains { $0["kind"] as? String == "contactPicked" })
    #expect(
      birthdays.contains {
        $0["kind"] as? String == "accessRequested"
          && (($0["caller"] as? [String: Any])?["executable"] as? String)?.hasSuffix("/kalends-birthdays") == true
      })
    let declared = try #require(
      try json(try CLI.run(["audit", "history", "--client", "com.example.social", "--format", "json"] + store).stdout)
        as? [[String: Any]])
    #expect(declared.contains { $0["caller"] as? String == "declared" })
    let log = try CLI.run(["log", "tail", "-n", "2000", "--format", "jsonl"] + store).stdout
    #expect(log.contains("\"kind\":\"callerUnidentified\""))
    let week = try CLI.run(["events", "--from", "2026-03-30", "--to", "2026-04-06", "--format", "json"] + store)
    #expect((try json(week.stdout) as? [Any])?.count ?? 0 >= 5)
    // The birthdays calendar: the six cards' birthdays and one anniversary, in a year.
    let year = try CLI.run(
      ["events", "--from", "2026-01-01", "--to", "2027-01-01", "--calendar", "Birthdays", "--format", "json"] + store)
    let titles = ((try json(year.stdout) as? [[String: Any]]) ?? []).compactMap { $0["title"] as? String }
    #expect(titles.count == 7 && titles.contains("Chiara Bianchi's Anniversary"), "\(titles)")
    #expect(try CLI.run(["audit", "verify"] + store).status == 0)
    // The README's day with kalends, as a new user types it, runs on the demo store.
    for command in try Self.readmeDay() {
      let ran = try CLI.run(Array(command.dropFirst()) + store)
      #expect(ran.status == 0, "\(command.joined(separator: " ")): \(ran.stderr)")
    }
    let again = try CLI.run(["demo"] + store)
    #expect(again.status == 0, "a second run replaces the demo store: \(again.stderr)")
    let other = TemporaryDirectory("not-demo")
    _ = try CLI.run(["init", "--store", other.storePath])
    #expect(try CLI.run(["demo", "--store", other.storePath]).status == 65, "another store is left alone")
  }

  /// The commands of the README's "A day with `kalends`" block, each split into its words as a
  /// shell would (double quotes kept together), `&&` apart; `kalends serve &` (a server kept
  /// running) left out.
  static func readmeDay() throws -> [[String]] {
    let readme = try String(
      contentsOf: Repository.root.appendingPathComponent("README.md"), encoding: .utf8)
    let section = try #require(readme.components(separatedBy: "## A day with `kalends`").dropFirst().first)
    let block = try #require(
      section.components(separatedBy: "```sh\n").dropFirst().first?.components(separatedBy: "```").first)
    var commands: [[String]] = []
    for line in block.split(separator: "\n") {
      var words: [String] = []
      var word = ""
      var quoted = false
      var started = false
      for character in line {
        if character == "\"" {
          quoted.toggle()
          started = true
        } else if character == "#" && !quoted && word.isEmpty {
          break
        } else if character == " " && !quoted {
          if started { words.append(word) }
          (word, started) = ("", false)
        } else {
          word.append(character)
          started = true
        }
      }
      if started { words.append(word) }
      for command in words.split(separator: "&&").map(Array.init) where command.last != "&" {
        try #require(command.first == "kalends", "\(line)")
        commands.append(command)
      }
    }
    #expect(commands.count >= 6, "\(commands)")
    return commands
  }
}
