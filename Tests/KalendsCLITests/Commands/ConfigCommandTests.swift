import Foundation
import KalendsTestSupport
import Testing

/// The person's settings file as a person writes it: found where XDG says, each setting the default
/// below flags and the environment, TOML read as Python's `tomllib` reads it, and a file Kalends
/// cannot take stopping every command with its file and line, before anything is written.
@Suite("Command line: the settings file")
struct ConfigCommandTests {
  /// A settings file with `text` in `directory`'s `config/kalends/config.toml`, the place
  /// `$XDG_CONFIG_HOME` names; the environment that finds it there.
  static func settings(_ text: String, in directory: TemporaryDirectory) throws -> [String: String] {
    let folder = directory.path + "/config/kalends"
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    try text.write(toFile: folder + "/config.toml", atomically: true, encoding: .utf8)
    return ["KALENDS_CONFIG": "", "XDG_CONFIG_HOME": directory.path + "/config", "TZ": ""]
  }

  @Test func theSettingsAreTheDefaultsOfADay() throws {
    let directory = TemporaryDirectory("config")
    let store = directory.path + "/calendars"
    let environment = try Self.settings(
      """
      # Ada's settings
      store = "\(store)"
      calendar = "work"          # a title as --calendar takes it
      reminder-list = "Errands"
      zone = "America/New_York"
      format = "json"
      """, in: directory)
    func kalends(_ arguments: [String], _ extra: [String: String] = [:]) throws -> CLI.Result {
      try CLI.run(arguments, environment: environment.merging(extra) { $1 })
    }
    func object(_ arguments: [String], _ extra: [String: String] = [:]) throws -> [String: Any] {
      let result = try kalends(arguments, extra)
      try #require(result.status == 0, "\(arguments): \(result.stderr)")
      return try #require(try json(result.stdout) as? [String: Any], "\(result.stdout)")
    }

    // No --store and no --format: the file's store, printed as JSON.
    #expect(try object(["init"])["path"] as? String == store)
    let work = try #require(try object(["calendar", "create", "Work"])["id"] as? String)
    let errands = try #require(try object(["calendar", "create", "Errands", "--reminders"])["id"] as? String)

    // The file's zone around New York's change to summer time (2026-03-08), and its calendar.
    let before = try object(["event", "add", "--title", "Standup", "--start", "2026-03-07 10:00"])
    let after = try object(["event", "add", "--title", "Standup", "--start", "2026-03-08 10:00"])
    #expect(before["start"] as? String == "2026-03-07T10:00:00-05:00" && before["calendarId"] as? String == work)
    #expect(after["start"] as? String == "2026-03-08T10:00:00-04:00", "\(after)")
    let reminder = try object(["reminder", "add", "--title", "Pay rent", "--due", "2026-03-31 17:00"])
    #expect(
      reminder["calendarId"] as? String == errands && reminder["dueDate"] as? String == "2026-03-31T17:00:00-04:00")

    // A flag wins over the environment, the environment over the file.
    let berlin = try object(
      ["event", "add", "--title", "Call", "--start", "2026-03-08 10:00"], ["TZ": "Europe/Berlin"])
    #expect(berlin["start"] as? String == "2026-03-08T10:00:00+01:00", "\(berlin)")
    let home = try #require(try object(["calendar", "create", "Home"])["id"] as? String)
    let flagged = try object([
      "event", "add", "--calendar", "Home", "--title", "Call", "--start", "2026-03-09", "--tz", "UTC",
    ])
    #expect(flagged["calendarId"] as? String == home)
    let table = try kalends(["status", "--format", "table"])
    #expect(table.status == 0 && table.stdout.hasPrefix("path "), "\(table.stdout)")
    let other = directory.path + "/other"
    #expect(try object(["init"], ["KALENDS_STORE": other])["path"] as? String == other)
    #expect(try object(["status", "--store", store], ["KALENDS_STORE": other])["path"] as? String == store)

    // `config show` says what is in force and what gave it.
    let shown = try object(["config", "show"], ["TZ": "Asia/Tokyo", "KALENDS_STORE": other])
    #expect(
      shown["file"] as? String == directory.path + "/config/kalends/config.toml" && shown["fileExists"] as? Bool == true
    )
    let rows = try #require(shown["settings"] as? [[String: Any]])
    let described = rows.map { "\($0["name"] ?? "")=\($0["value"] ?? "null")<\($0["from"] ?? "")" }
    #expect(
      described == [
        "store=\(other)<$KALENDS_STORE", "calendar=work<settings file", "reminder-list=Errands<settings file",
        "zone=Asia/Tokyo<$TZ", "format=json<settings file", "notify=desktop<default",
      ], "\(described)")
  }

  @Test func withoutTheFileOrASettingTheDefaultsHold() throws {
    let directory = TemporaryDirectory("config")
    let environment = ["KALENDS_CONFIG": "", "XDG_CONFIG_HOME": directory.path + "/nothing", "TZ": "UTC"]
    let store = try CLIStore()
    let table = try store.run(["status"], environment: environment)
    #expect(table.status == 0 && table.stdout.hasPrefix("path "), "a table: \(table.stdout)")
    _ = try store.calendar("Work")
    let head = try store.head()
    let missing = try store.run(
      ["event", "add", "--title", "Call", "--start", "tomorrow 10:00"], environment: environment)
    #expect(missing.status == 64, "\(missing.stderr)")
    #expect(
      missing.stderr.contains("give --calendar, or set calendar in \(directory.path)/nothing/kalends/config.toml"))
    let reminder = try store.run(["reminder", "add", "--title", "Call"], environment: environment)
    #expect(reminder.status == 64 && reminder.stderr.contains("set reminder-list in"), "\(reminder.stderr)")
    #expect(try store.head() == head)
    let shown = try CLI.run(["config", "show"], environment: environment)
    #expect(shown.status == 0 && shown.stdout.contains("none there"), "\(shown.stdout)")

    // Named by $KALENDS_CONFIG, a file must be there.
    let named = try CLI.run(["status"], environment: ["KALENDS_CONFIG": directory.path + "/absent.toml"])
    #expect(named.status == 65 && named.stderr.contains("$KALENDS_CONFIG names \(directory.path)/absent.toml"))
  }

  /// A settings path that is not a regular file (a FIFO no one writes to, a device) is refused at
  /// once rather than read: nothing hangs. `/dev/null` stays "no settings".
  @Test func aSettingsPathThatIsNotARegularFileIsRefusedAtOnce() throws {
    let directory = TemporaryDirectory("config")
    let fifo = directory.path + "/config.toml"
    #expect(mkfifo(fifo, 0o600) == 0)
    let store = try CLIStore()
    let started = Date()
    let refused = try store.run(["status"], environment: ["KALENDS_CONFIG": fifo])
    #expect(refused.status == 65 && refused.stderr.contains("is not a regular file"), "\(refused.stderr)")
    #expect(Date().timeIntervalSince(started) < 5, "it waited on the FIFO")
    let device = try store.run(["status"], environment: ["KALENDS_CONFIG": "/dev/zero"])
    #expect(device.status == 65 && device.stderr.contains("is not a regular file"), "\(device.stderr)")
    let none = try store.run(["status"], environment: ["KALENDS_CONFIG": "/dev/null"])
    #expect(none.status == 0, "\(none.stderr)")
  }

  /// What Kalends does not take stops every command, names the file and line, and writes nothing;
  /// help stays readable.
  @Test(arguments: [
    ("calendar = \"Work\"\ncalender = \"Home\"\n", ":2: unknown setting \"calender\""),
    ("# zone\n\nzone = 5\n", ":3: zone takes a string in quotes"),
    ("format = \"xml\"\n", ":1: format is \"xml\" — give table or json"),
    ("zone = \"Mars/Olympus\"\n", ":1: zone: "),
    ("store = \"calendars\"\n", ":1: store is \"calendars\" — give an absolute path or ~/…"),
    ("calendar = \"\"\n", ":1: calendar is empty"),
    ("[events]\ncalendar = \"Work\"\n", ":1: unknown setting \"events\""),
    ("notify = \"none\"\nzone = Europe/Berlin\n", ":2:8: "),
    ("zone = true\n", ":1: zone takes a string in quotes"),
    ("\n\nstore.path = \"/tmp\"\n", ":3: store takes a string in quotes, such as store = \"…\" (found: table)"),
  ])
  func aFileKalendsCannotTakeStopsEveryCommand(text: String, expected: String) throws {
    let store = try CLIStore()
    _ = try store.calendar("Work")
    let head = try store.head()
    let environment = try Self.settings(text, in: store.directory)
    let added = try store.run(
      ["event", "add", "--calendar", "Work", "--title", "Call", "--start", "2026-03-09 10:00"], environment: environment
    )
    #expect(added.status == 65, "\(added.stderr)")
    #expect(added.stderr.contains("/config/kalends/config.toml" + expected), "\(added.stderr)")
    #expect(try store.head() == head, "nothing written")
    let shown = try CLI.run(["config", "show"], environment: environment)
    #expect(shown.status == 65 && shown.stderr == added.stderr, "\(shown.stderr)")
    let help = try CLI.run(["event", "add", "--help"], environment: environment)
    #expect(help.status == 0 && help.stdout.contains("USAGE: kalends event add"), "\(help.stderr)")
  }

  /// Kalends reads TOML as `tomllib` (Python's, TOML 1.0) does: the same files taken, the same
  /// strings read, the same lines named where a file is not TOML.
  @Test func tomlIsReadAsPythonsTomllibReadsIt() throws {
    let files = [
      "zone = 'Europe/Berlin' # a literal string",
      "\"zone\" = \"Asia/Tokyo\"",
      "calendar = \"\"\"Work\"\"\"",
      "calendar = \"Caf\\u00e9 \\\"Central\\\"\"",
      "  calendar=\"Home\"  \n\n# comment\nformat = \"json\"",
      "calendar = '''\nMulti'''",
      "reminder-list = \"Errands\"\r\nnotify = \"none\"\r\n",
      "calendar = \"unterminated",
      "calendar = \"A\"\n\ncalendar = \"B\"",
      "zone = Europe/Berlin",
      "format = \"json\"\ncalendar = \"a\\qb\"",
      "calendar = \"A\" format = \"json\"",
      "calendar = \"tab\there\"",
      "calendar = \"\"\"\nOne \\\n    two\\tthree \\U0001F600\"\"\"",
      "calendar = \"\"\"a \"quoted\" word\"\"\"\"\"\nformat = 'table'",
      "\"zo\\u006ee\" = \"UTC\"\n'reminder-list' = 'a\\b'",
      "calendar = '''\r\nfirst\r\nsecond'''\r\n",
      "calendar = \"A\"\r\rformat = \"json\"",
      "# a comment with a \u{7}bell\ncalendar = \"A\"",
      "calendar = \"A\"\n\"calendar\" = \"B\"",
      "calendar = \"\\uD800\"",
      "calendar = \"\"\"never closed\n",
      "notify = \"none\"\n\ncalendar \"Work\"",
      "calendar = \"\"\"x\"\"\"\"\"\"",
      "= \"Work\"",
      "calendar = 'it''s'",
    ]
    let directory = TemporaryDirectory("config")
    let oracle = """
      import json, sys, tomllib
      out = []
      for path in sys.argv[1:]:
          try:
              with open(path, "rb") as f:
                  out.append({"ok": tomllib.load(f)})
          except tomllib.TOMLDecodeError as e:
              out.append({"error": str(e)})
      print(json.dumps(out))
      """
    var paths: [String] = []
    for (index, text) in files.enumerated() {
      let path = directory.path + "/\(index).toml"
      try text.write(toFile: path, atomically: true, encoding: .utf8)
      paths.append(path)
    }
    let expected = try #require(try json(try CLI.python(oracle, paths)) as? [[String: Any]])
    for (index, path) in paths.enumerated() {
      let shown = try CLI.run(["config", "show", "--format", "json"], environment: ["KALENDS_CONFIG": path, "TZ": ""])
      if let values = expected[index]["ok"] as? [String: String] {
        try #require(shown.status == 0, "\(files[index]): \(shown.stderr)")
        let rows = try #require((try json(shown.stdout) as? [String: Any])?["settings"] as? [[String: Any]])
        for (key, value) in values {
          let row = rows.first { $0["name"] as? String == key }
          #expect(row?["value"] as? String == value && row?["from"] as? String == "settings file", "\(files[index])")
        }
      } else {
        let error = try #require(expected[index]["error"] as? String)
        // tomllib names a line unless the problem is at the end of the document.
        let line = error.firstMatch(of: /at line (\d+)/).map { ":\($0.1):" } ?? ":"
        #expect(shown.status == 65, "\(files[index]): tomllib says \(error)")
        #expect(shown.stderr.contains("\(path)\(line)"), "\(files[index]): \(shown.stderr) — tomllib: \(error)")
      }
    }
  }
}
