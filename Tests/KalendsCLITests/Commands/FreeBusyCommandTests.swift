import Foundation
import KalendsTestSupport
import Testing

/// `kalends freebusy`: merged busy periods of a window, and the same as a `VFREEBUSY` read back by
/// Python's `icalendar`.
@Suite("Command line: free and busy time")
struct FreeBusyCommandTests {
  /// Prints each `FREEBUSY` period of the `VFREEBUSY` on standard input as `FBTYPE start end` in
  /// UTC ISO 8601, after its window.
  static let reader = """
    import sys, icalendar, datetime
    calendar = icalendar.Calendar.from_ical(sys.stdin.read())
    utc = datetime.timezone.utc
    for component in calendar.walk("VFREEBUSY"):
        print("window", component.decoded("DTSTART").astimezone(utc).isoformat(),
              component.decoded("DTEND").astimezone(utc).isoformat())
        values = component.get("FREEBUSY", [])
        for value in values if isinstance(values, list) else [values]:
            start, end = value.dt
            print(value.params.get("FBTYPE", "BUSY"), start.astimezone(utc).isoformat(), end.astimezone(utc).isoformat())
    """

  /// A day in Berlin (UTC+1) of overlapping, adjoining, tentative, free and cancelled events in two
  /// calendars.
  static func day() throws -> CLIStore {
    let store = try CLIStore()
    let work = try store.calendar("Work")
    let home = try store.calendar("Home")
    func add(_ calendar: String, _ title: String, _ start: String, _ end: String, _ extra: [String] = []) throws {
      try store.object(
        [
          "event", "add", "--calendar", calendar, "--title", title, "--start", "2027-02-03T\(start):00",
          "--end", "2027-02-03T\(end):00", "--tz", "Europe/Berlin",
        ] + extra)
    }
    try add(work, "Standup", "09:00", "10:00")
    try add(work, "Review", "09:30", "11:00")
    try add(work, "Maybe lunch", "11:00", "11:30", ["--status", "tentative"])
    try add(work, "Focus (free)", "13:00", "14:00", ["--availability", "free"])
    try add(work, "Called off", "15:00", "16:00", ["--status", "canceled"])
    try add(home, "Plumber", "10:30", "12:00")
    return store
  }

  @Test func busyPeriodsAreMergedAcrossCalendarsAndShownInTheZone() throws {
    let store = try Self.day()
    let window = ["--from", "2027-02-03", "--to", "2027-02-04", "--tz", "Europe/Berlin"]
    let all = try store.object(["freebusy"] + window)
    let busy = try #require(all["busy"] as? [[String: String]])
    #expect(all["from"] as? String == "2027-02-03T00:00:00+01:00")
    #expect(
      busy == [
        ["start": "2027-02-03T09:00:00+01:00", "end": "2027-02-03T12:00:00+01:00", "kind": "BUSY"],
        ["start": "2027-02-03T11:00:00+01:00", "end": "2027-02-03T11:30:00+01:00", "kind": "BUSY-TENTATIVE"],
      ], "\(busy)")
    let work = try store.object(["freebusy", "--calendar", "work"] + window)
    #expect(
      (work["busy"] as? [[String: String]])?.first == [
        "start": "2027-02-03T09:00:00+01:00", "end": "2027-02-03T11:00:00+01:00", "kind": "BUSY",
      ], "\(work)")
    let table = try store.run(["freebusy"] + window)
    #expect(table.status == 0)
    #expect(table.stdout.contains("BUSY-TENTATIVE") && table.stdout.contains("2027-02-03T09:00:00+01:00"))
    let free = try store.run(["freebusy", "--from", "2027-02-04", "--to", "2027-02-05", "--tz", "Europe/Berlin"])
    #expect(free.stdout.hasPrefix("free from 2027-02-04T00:00:00+01:00 to 2027-02-05T00:00:00+01:00"), "\(free.stdout)")
  }

  @Test func theVFreeBusyReadsBackInIcalendarAsTheSamePeriods() throws {
    let store = try Self.day()
    let result = try store.run(
      ["freebusy", "--from", "2027-02-03", "--to", "2027-02-04", "--tz", "Europe/Berlin", "--format", "ics"])
    #expect(result.status == 0, "\(result.stderr)")
    #expect(result.stdout.split(separator: "\r\n", omittingEmptySubsequences: false).last == "")
    let read = try CLI.run(
      ["python3", "-c", Self.reader], stdin: result.stdout, program: URL(fileURLWithPath: "/usr/bin/env"))
    #expect(read.status == 0, "\(read.stderr)")
    #expect(
      read.stdout.split(separator: "\n") == [
        "window 2027-02-02T23:00:00+00:00 2027-02-03T23:00:00+00:00",
        "BUSY 2027-02-03T08:00:00+00:00 2027-02-03T11:00:00+00:00",
        "BUSY-TENTATIVE 2027-02-03T10:00:00+00:00 2027-02-03T10:30:00+00:00",
      ], "\(read.stdout)")
  }

  @Test func theWindowIsTheWeekFromTodayInTheLocalZoneUnlessGiven() throws {
    let store = try CLIStore()
    let oracle = """
      import datetime, zoneinfo
      zone = zoneinfo.ZoneInfo("Pacific/Auckland")
      day = datetime.datetime.now(zone).date()
      print(datetime.datetime.combine(day, datetime.time(), zone).isoformat())
      print(datetime.datetime.combine(day + datetime.timedelta(days=7), datetime.time(), zone).isoformat())
      """
    let before = try CLI.python(oracle, []).split(separator: "\n").map(String.init)
    let result = try CLI.run(
      ["freebusy", "--format", "json", "--store", store.directory.storePath], environment: ["TZ": "Pacific/Auckland"])
    let after = try CLI.python(oracle, []).split(separator: "\n").map(String.init)
    #expect(result.status == 0, "\(result.stderr)")
    let window = try #require(try json(result.stdout) as? [String: Any])
    let shown = [window["from"] as? String ?? "", window["to"] as? String ?? ""]
    // A day may begin between the readings: then the command agrees with one of them.
    #expect(shown == before || shown == after, "\(window) against \(before)")
  }

  @Test(arguments: [
    (["--from", "2027-02-04", "--to", "2027-02-03"], "--to must be after --from", Int32(65)),
    (["--from", "someday"], "--from: \"someday\" is not a date or time", 65),
    (["--tz", "Mars/Olympus"], "--tz", 65),
    (["--calendar", "Nowhere"], "no calendar is named \"Nowhere\"", 66),
  ])
  func badInputIsRefusedAndChangesNothing(arguments: [String], message: String, status: Int32) throws {
    let store = try Self.day()
    let before = try store.head()
    let result = try store.run(["freebusy"] + arguments)
    #expect(result.status == status, "\(result.stderr)")
    #expect(result.stderr.contains(message), "\(result.stderr)")
    #expect(try store.head() == before)
  }
}
