import Foundation
import KalendsTestSupport
import Testing

/// Dates and times as a person types them (`tomorrow 10:00`, `next friday`, `+3d`), read in the
/// zone of `$TZ`, against python-dateutil's reading of the same words at the same moment.
@Suite("Command line: dates and times as people type them")
struct SpokenTimeCLITests {
  /// What each phrase means now in `zone`, by dateutil: an ISO date, or a date-time in `zone` with
  /// its offset (a time typed without `--tz` is in the person's zone).
  static let oracle = """
    import sys, datetime, zoneinfo
    from dateutil.relativedelta import relativedelta, MO, TU, WE, TH, FR, SA, SU
    zone = zoneinfo.ZoneInfo(sys.argv[1])
    now = datetime.datetime.now(datetime.timezone.utc)
    today = now.astimezone(zone).date()
    days = [MO, TU, WE, TH, FR, SA, SU]
    def at(day, h, m): return datetime.datetime.combine(day, datetime.time(h, m), tzinfo=zone).isoformat()
    answers = {
      "today": today.isoformat(),
      "tomorrow": (today + relativedelta(days=+1)).isoformat(),
      "yesterday": (today + relativedelta(days=-1)).isoformat(),
      "friday": (today + relativedelta(weekday=FR)).isoformat(),
      "next mon": (today + relativedelta(days=+1, weekday=MO)).isoformat(),
      "next week": (today + relativedelta(weeks=+1)).isoformat(),
      "+3d": (today + relativedelta(days=+3)).isoformat(),
      "-2w": (today + relativedelta(weeks=-2)).isoformat(),
      "tomorrow 10:00": at(today + relativedelta(days=+1), 10, 0),
      "Next Friday 9:05": at(today + relativedelta(days=+1, weekday=FR), 9, 5),
      "14:30": at(today, 14, 30),
      "2026-12-01 10:00": at(datetime.date(2026, 12, 1), 10, 0),
      "2026-12-01T10:00": at(datetime.date(2026, 12, 1), 10, 0),
    }
    for phrase in sys.argv[2:]: print(answers[phrase])
    """

  static let phrases = [
    "today", "tomorrow", "yesterday", "friday", "next mon", "next week", "+3d", "-2w", "tomorrow 10:00",
    "Next Friday 9:05", "14:30", "2026-12-01 10:00", "2026-12-01T10:00",
  ]

  /// Auckland is 12 or 13 hours ahead of UTC: its today differs from UTC's for half of every day.
  @Test(arguments: ["Pacific/Auckland", "America/Los_Angeles"])
  func dueDatesReadAsDateutilReadsThem(zone: String) throws {
    let store = try CLIStore()
    let calendar = try #require(try store.object(["calendar", "create", "Errands", "--reminders"])["id"] as? String)
    let before = try CLI.python(Self.oracle, [zone] + Self.phrases).split(separator: "\n").map(String.init)
    var dues: [String] = []
    for phrase in Self.phrases {
      let result = try CLI.run(
        [
          "reminder", "add", "--calendar", calendar, "--title", "Due \(phrase)", "--due", phrase, "--format", "json",
          "--store",
          store.directory.storePath,
        ], environment: ["TZ": zone])
      try #require(result.status == 0, "\(phrase): \(result.stderr)")
      let reminder = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any]
      dues.append(try #require(reminder?["dueDate"] as? String, "\(phrase): \(result.stdout)"))
    }
    let after = try CLI.python(Self.oracle, [zone] + Self.phrases).split(separator: "\n").map(String.init)
    // A day may begin between the two readings: then the commands agree with one of them.
    #expect(dues == before || dues == after, "\(zip(Self.phrases, dues).map { "\($0) → \($1)" }) against \(before)")
  }

  @Test func nowAndHoursFromNowAreInstants() throws {
    let store = try CLIStore()
    let calendar = try store.calendar("Work")
    let started = Date()
    let event = try store.object([
      "event", "add", "--calendar", calendar, "--title", "Soon", "--start", "+2h", "--end", "+150m",
    ])
    let parse = ISO8601DateFormatter()
    let startText = try #require(event["start"] as? String, "\(event)")
    let endText = try #require(event["end"] as? String, "\(event)")
    let start = try #require(parse.date(from: startText), "\(startText)")
    let end = try #require(parse.date(from: endText), "\(endText)")
    #expect(abs(start.timeIntervalSince(started) - 7_200) < 60, "\(event)")
    #expect(end.timeIntervalSince(start) == 1_800)
  }

  @Test(arguments: [
    "someday", "25:00", "10:60", "+3x", "+d", "next", "next year", "tomorrow 10", "mo", "10:00 tomorrow",
  ])
  func anythingElseIsRefusedWithTheFormsNamed(_ phrase: String) throws {
    let store = try CLIStore()
    let calendar = try store.calendar("Work")
    let result = try store.run(["event", "add", "--calendar", calendar, "--title", "x", "--start", phrase])
    #expect(result.status == 65, "\(phrase): \(result.stdout)")
    #expect(
      result.stderr.contains("is not a date or time") && result.stderr.contains("tomorrow 10:00"), "\(result.stderr)")
    #expect(try store.objects(["events", "--from", "2000-01-01", "--to", "2100-01-01"]).isEmpty)
  }
}
