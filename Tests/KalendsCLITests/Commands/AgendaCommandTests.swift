import Foundation
import KalendsTestSupport
import Testing

/// `kalends agenda` as a person types it: days in the reader's zone (`$TZ`), across a change of
/// offset and midnight, all-day events apart, cancelled ones marked, reminders due and overdue.
@Suite("Command line: agenda")
struct AgendaCommandTests {
  /// A store with the week of the end of daylight saving time in New York (1 November 2026).
  static func store() throws -> CLIStore {
    let store = try CLIStore()
    let work = try store.calendar("Work")
    let personal = try store.calendar("Personal")
    let errands = try store.calendar("Errands", ["--reminders"])
    func add(_ calendar: String, _ title: String, _ arguments: [String]) throws {
      try store.object(["event", "add", "--calendar", calendar, "--title", title] + arguments)
    }
    let york = ["--tz", "America/New_York"]
    try add(personal, "Overnight", ["--start", "2026-10-31T22:00:00", "--end", "2026-11-01T03:00:00"] + york)
    try add(personal, "Trip", ["--start", "2026-10-31", "--end", "2026-11-02", "--all-day"])
    try add(
      work, "Standup",
      ["--start", "2026-10-26T09:00:00", "--end", "2026-10-26T09:15:00", "--rrule", "FREQ=DAILY;COUNT=10"] + york)
    try add(
      work, "Call Tokyo", ["--start", "2026-11-02T08:00:00", "--end", "2026-11-02T09:00:00", "--tz", "Asia/Tokyo"])
    try add(
      personal, "Dentist",
      ["--start", "2026-11-02T10:00:00", "--end", "2026-11-02T11:00:00", "--status", "canceled"] + york)
    try store.object(
      ["reminder", "add", "--calendar", errands, "--title", "Pay rent", "--due", "2026-11-01T17:00:00"] + york)
    try store.object(["reminder", "add", "--calendar", errands, "--title", "Later", "--due", "2026-11-05"])
    try store.object(["reminder", "add", "--calendar", errands, "--title", "Long overdue", "--due", "2001-01-01"])
    return store
  }

  static func agenda(_ store: CLIStore, _ arguments: [String], zone: String) throws -> CLI.Result {
    try CLI.run(["agenda"] + arguments + ["--store", store.directory.storePath], environment: ["TZ": zone])
  }

  static func days(_ page: [String: Any]) -> [String: [String: [String]]] {
    var days: [String: [String: [String]]] = [:]
    for day in page["days"] as? [[String: Any]] ?? [] {
      let date = day["date"] as? String ?? "?"
      for list in ["allDay", "events", "reminders"] {
        days[date, default: [:]][list] = (day[list] as? [[String: Any]] ?? []).compactMap { $0["title"] as? String }
      }
    }
    return days
  }

  @Test func daysAreTheReadersAcrossMidnightAndAChangeOfOffset() throws {
    let store = try Self.store()
    let result = try Self.agenda(store, ["2026-10-31..2026-11-02", "--format", "json"], zone: "America/New_York")
    try #require(result.status == 0, "\(result.stderr)")
    let page = try #require(try json(result.stdout) as? [String: Any])
    // The day given as the end is included; the window's end is in the offset after the change.
    #expect(page["from"] as? String == "2026-10-31T00:00:00-04:00")
    #expect(page["to"] as? String == "2026-11-03T00:00:00-05:00")
    #expect((page["overdue"] as? [Any])?.isEmpty == true, "the window does not hold the present")
    let expected: [String: [String: [String]]] = [
      "2026-10-31": ["allDay": ["Trip"], "events": ["Standup", "Overnight"], "reminders": []],
      // Tokyo's 08:00 on the 2nd is 18:00 of the 1st in New York, after the change (UTC-5).
      "2026-11-01": ["allDay": ["Trip"], "events": ["Overnight", "Standup", "Call Tokyo"], "reminders": ["Pay rent"]],
      "2026-11-02": ["allDay": [], "events": ["Standup", "Dentist"], "reminders": []],
    ]
    #expect(Self.days(page) == expected)

    let table = try Self.agenda(store, ["2026-10-31..2026-11-02"], zone: "America/New_York")
    #expect(table.status == 0, "\(table.stderr)")
    let text = table.stdout
    for line in [
      "Saturday 31 October 2026", "Sunday 1 November 2026", "Monday 2 November 2026", "22:00 →", "→ 03:00",
      "18:00–19:00", "Dentist [canceled]", "due 17:00", "all day",
    ] {
      #expect(text.contains(line), "\(line) in:\n\(text)")
    }
    #expect(!text.contains("\u{1B}["), "no colour when the output is not a terminal")
    // All-day events come first in their day, reminders last.
    let sunday = try #require(text.components(separatedBy: "Sunday 1 November 2026").last)
    let order = ["Trip", "Overnight", "Standup", "Call Tokyo", "Pay rent"].compactMap {
      sunday.range(of: $0)?.lowerBound
    }
    #expect(order.count == 5 && order == order.sorted(), "\(sunday)")

    // The same store read in Tokyo: the overnight event is one afternoon of 1 November there.
    let tokyo = try Self.agenda(store, ["2026-11-01", "--format", "json"], zone: "Asia/Tokyo")
    let tokyoPage = try #require(try json(tokyo.stdout) as? [String: Any], "\(tokyo.stderr)")
    #expect(Self.days(tokyoPage)["2026-11-01"]?["events"]?.contains("Overnight") == true, "\(tokyo.stdout)")
    let inTokyo = try Self.agenda(store, ["2026-11-01"], zone: "Asia/Tokyo")
    #expect(inTokyo.stdout.contains("11:00–17:00"), "\(inTokyo.stdout)")
  }

  /// `today`, `week` and `month` are the reader's, as python-dateutil reckons them in the same zone.
  @Test(arguments: ["Pacific/Auckland", "America/Los_Angeles"])
  func relativeWindowsAreTheReadersDays(zone: String) throws {
    let store = try Self.store()
    let oracle = """
      import sys, datetime, zoneinfo
      from dateutil.relativedelta import relativedelta
      zone = zoneinfo.ZoneInfo(sys.argv[1])
      today = datetime.datetime.now(zone).date()
      def midnight(day): return datetime.datetime.combine(day, datetime.time(), zone).isoformat()
      print(midnight(today), midnight(today + relativedelta(days=1)), midnight(today + relativedelta(days=7)),
            midnight(today + relativedelta(months=1)))
      """
    let before = try CLI.python(oracle, [zone])
    var answers: [String] = []
    for when in ["today", "week", "month"] {
      let result = try Self.agenda(store, [when, "--format", "json"], zone: zone)
      let page = try #require(try json(result.stdout) as? [String: Any], "\(when): \(result.stderr)")
      if answers.isEmpty { answers.append(page["from"] as? String ?? "") }
      answers.append(page["to"] as? String ?? "")
      // The present is in each of these windows: the reminder due in 2001 is overdue in each,
      // first (by due date).
      let overdue = (page["overdue"] as? [[String: Any]] ?? []).compactMap { $0["title"] as? String }
      #expect(overdue.first == "Long overdue", "\(when): \(overdue)")
    }
    let after = try CLI.python(oracle, [zone])
    let shown = answers.joined(separator: " ")
    #expect(
      [before, after].map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }.contains(shown),
      "\(shown) against \(before)")
  }

  /// `--tz` is where the words are read: "tomorrow" is Auckland's with `--tz Pacific/Auckland`,
  /// even where `$TZ` is Los Angeles (whose date is a day behind for most of the day).
  @Test func wordsAreReadInTheZoneGiven() throws {
    let store = try CLIStore()
    let oracle = """
      import sys, datetime, zoneinfo
      zone = zoneinfo.ZoneInfo(sys.argv[1])
      day = datetime.datetime.now(zone).date() + datetime.timedelta(days=1)
      print(datetime.datetime.combine(day, datetime.time(), zone).isoformat())
      """
    let before = try CLI.python(oracle, ["Pacific/Auckland"]).trimmingCharacters(in: .whitespacesAndNewlines)
    let result = try Self.agenda(
      store, ["tomorrow", "--tz", "Pacific/Auckland", "--format", "json"], zone: "America/Los_Angeles")
    let page = try #require(try json(result.stdout) as? [String: Any], "\(result.stderr)")
    let after = try CLI.python(oracle, ["Pacific/Auckland"]).trimmingCharacters(in: .whitespacesAndNewlines)
    #expect([before, after].contains(page["from"] as? String ?? ""), "\(page["from"] ?? "") against \(before)")
  }

  /// A title an app wrote cannot act on the person's terminal: what the store lets titles hold
  /// that could (a carriage return, a C1 control sequence introducer, a right-to-left override;
  /// the store refuses the C0 escape itself) is shown escaped, in titles and calendar names.
  @Test func titlesCannotActOnTheTerminal() throws {
    let store = try CLIStore()
    let calendar = try store.calendar("Work\u{202E}")
    let list = try store.calendar("Errands\r", ["--reminders"])
    try store.object([
      "event", "add", "--calendar", calendar, "--title", "Standup\rfake", "--start", "2026-06-01T09:00:00",
    ])
    try store.object(["reminder", "add", "--calendar", list, "--title", "Pay\u{9B}2J", "--due", "2026-06-01"])
    let result = try Self.agenda(store, ["2026-06-01"], zone: "UTC")
    #expect(result.status == 0, "\(result.stderr)")
    for raw in ["\r", "\u{202E}", "\u{9B}"] {
      #expect(!result.stdout.contains(raw), "\(raw.debugDescription) in \(result.stdout.debugDescription)")
    }
    for shown in ["Standup\\rfake", "Work\\u{202E}", "Pay\\u{9B}2J", "Errands\\r"] {
      #expect(result.stdout.contains(shown), "\(shown) in \(result.stdout.debugDescription)")
    }
  }

  @Test func aWindowThatIsNotOneIsRefusedAndWritesNothing() throws {
    let store = try Self.store()
    let head = try store.head()
    for when in ["nonsense", "2026-12-05..2026-12-01", "2026-13-01"] {
      let result = try Self.agenda(store, [when], zone: "Europe/Berlin")
      #expect(result.status == 65, "\(when): \(result.stdout)")
      #expect(result.stderr.contains(when), "\(when): \(result.stderr)")
    }
    let empty = try Self.agenda(store, ["2030-01-01..2030-01-03"], zone: "Europe/Berlin")
    #expect(empty.stdout == "Nothing from Tuesday 1 January 2030 to Thursday 3 January 2030.\n", "\(empty.stdout)")
    #expect(try store.head() == head)
  }
}
