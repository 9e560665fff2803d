import Foundation
import Kalends
import KalendsSynthetic
import LMDB

/// The speed guard's measurements on one synthetic store and its floors, in a work directory.
final class GuardBench {
  private let directory: String
  private let turns: Int
  private let store: Store
  private let events: EventStore
  /// The store's event calendars, in the synthetic calendar's order.
  private let calendars: [ObjectID]
  /// Answers that differed from their floor's, said as they were found.
  private(set) var mismatches: [String] = []

  /// Loads the synthetic calendar of `count` events into a new store under `directory`.
  init(directory: String, events count: Int, turns: Int) throws {
    self.directory = directory
    self.turns = turns
    store = try Store.create(at: directory + "/store", options: StoreOptions(durability: .noSync))
    events = EventStore(store: store)
    let synthetic = SyntheticCalendar(seed: 1, events: count)
    try synthetic.load(into: events)
    try store.sync()
    calendars = synthetic.calendars().map(\.id)
  }

  /// A week in one calendar and in all of them, against the same occurrences in the floor layout.
  func range() throws -> [GuardTiming] {
    let span = RangeWindows.firstSecond..<RangeWindows.lastSecond
    let occurrences = try calendars.map { calendar in
      try events.instances(
        matching: EventPredicate(start: span.lowerBound, end: span.upperBound, calendars: [calendar]))
    }
    let floor = try GuardRangeFloor(at: directory + "/range-floor", occurrences: occurrences)
    var figures: [GuardTiming] = []
    for scope in [RangeWindows.Scope.oneCalendar, .allCalendars] {
      let windows = RangeWindows(.week, scope, count: turns, seed: 7, span: span, calendarCount: calendars.count)
      var timing = GuardTiming(scope == .oneCalendar ? "range.week.one" : "range.week.all")
      for window in windows.windows {
        let predicate = RangeWindows.predicate(window, calendars)
        var (ours, theirs) = (0, 0)
        try timing.turn {
          ours = try events.instances(matching: predicate).count
        } floor: {
          theirs =
            try window.calendar.map { try floor.count(calendar: $0, from: window.start, to: window.end) }
            ?? floor.countAll(from: window.start, to: window.end)
        }
        if ours != theirs, mismatches.count < 5 {
          mismatches.append("\(timing.name) [\(window.start), \(window.end)): \(ours) occurrences, the floor \(theirs)")
        }
      }
      figures.append(timing)
    }
    return figures
  }

  /// Saving an event (one transaction, no fsync) against a raw LMDB put of a record of its size.
  func append() throws -> GuardTiming {
    let target = try Store.create(at: directory + "/append", options: StoreOptions(durability: .noSync))
    let writer = EventStore(store: target)
    let calendar = try BenchWriter.calendar(in: writer)
    try BenchWriter.saveOne(0, in: calendar, with: writer)
    let head = try target.head().position
    let size = try target.recordBytes(from: head, through: head).first?.count ?? 256
    try FileManager.default.createDirectory(atPath: directory + "/append-floor", withIntermediateDirectories: true)
    let environment = try Environment(
      path: directory + "/append-floor", options: EnvironmentOptions(durability: .noSync))
    let log = try environment.openDatabase(named: "log")
    let record = [UInt8](repeating: 0x5a, count: size)
    var timing = GuardTiming("log.append")
    for index in 1...turns {
      try timing.turn {
        try BenchWriter.saveOne(index, in: calendar, with: writer)
      } floor: {
        try environment.write { txn in try txn.put(record, forKey: BigEndianKey(UInt64(index)), in: log) }
      }
    }
    return timing
  }

  /// Rebuilding every projection from the log against scanning the same records in raw LMDB.
  func replay() throws -> GuardTiming {
    let head = try store.head().position
    let records = try store.recordBytes(from: LogPosition(1), through: head)
    try FileManager.default.createDirectory(atPath: directory + "/replay-floor", withIntermediateDirectories: true)
    let environment = try Environment(
      path: directory + "/replay-floor", options: EnvironmentOptions(durability: .noSync))
    let log = try environment.openDatabase(named: "log")
    try environment.write { txn in
      for (offset, record) in records.enumerated() {
        try txn.put(record, forKey: BigEndianKey(UInt64(offset + 1)), in: log)
      }
    }
    var timing = GuardTiming("log.replay")
    var scanned = 0
    for _ in 0..<5 {
      try timing.turn {
        _ = try store.rebuildProjections()
      } floor: {
        scanned = try environment.read { txn in
          try txn.withCursor(on: log) { cursor in
            var bytes = 0
            try cursor.scanForward { _, value in
              bytes &+= value.byteCount
              return .continue
            }
            return bytes
          }
        }
      }
    }
    if scanned != records.reduce(0, { $0 + $1.count }) {
      mismatches.append("log.replay: the floor scanned \(scanned) bytes")
    }
    return timing
  }

  /// A CalDAV week REPORT against the same week in-process, and `GET /v1/whoami` against a bare
  /// Hummingbird route; both servers answer this process on Unix sockets.
  func served() throws -> [GuardTiming] {
    let programs = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath().deletingLastPathComponent()
    let kalends = programs.appendingPathComponent("kalends").path
    let storePath = directory + "/store"
    let me = try Self.executable()
    try GuardProcess.run(
      kalends,
      ["client", "register", "org.kalends.guard", "--name", "Speed guard", "--executable", me, "--store", storePath])
    try GuardProcess.run(
      kalends,
      ["access", "set", "org.kalends.guard", "--service", "calendars", "--status", "full", "--store", storePath])
    let server = try GuardProcess(
      kalends, ["serve", "--store", storePath, "--socket", directory + "/k.sock", "--notify", "none"])
    defer { server.stop() }
    let floorServer = try GuardProcess(
      programs.appendingPathComponent("kalends-floor-server").path, [directory + "/f.sock", "0"])
    defer { floorServer.stop() }
    let ours = try GuardHTTPClient(socket: directory + "/k.sock")
    let theirs = try GuardHTTPClient(socket: directory + "/f.sock")

    var trivial = GuardTiming("server.trivial")
    for _ in 0..<turns {
      var statuses = (0, 0)
      try trivial.turn {
        statuses.0 = try ours.request("GET", "/v1/whoami").status
      } floor: {
        statuses.1 = try theirs.request("GET", "/v1/whoami").status
      }
      guard statuses == (200, 200) else { throw GuardFailure("GET /v1/whoami answered \(statuses)") }
    }

    let span = RangeWindows.firstSecond..<RangeWindows.lastSecond
    let windows = RangeWindows(.week, .oneCalendar, count: turns, seed: 11, span: span, calendarCount: 1).windows
    let path = "/dav/calendars/\(calendars[0])/"
    let reports = windows.map { window in
      """
      <?xml version="1.0"?><C:calendar-query xmlns:D="DAV:" xmlns:C="urn:ietf:params:xml:ns:caldav">\
      <D:prop><D:getetag/><C:calendar-data/></D:prop><C:filter><C:comp-filter name="VCALENDAR">\
      <C:comp-filter name="VEVENT"><C:time-range start="\(Self.ical(window.start))" end="\(Self.ical(window.end))"/>\
      </C:comp-filter></C:comp-filter></C:filter></C:calendar-query>
      """
    }
    let headers = ["Depth": "1", "Content-Type": "application/xml"]
    // A first pass keeps every object's text, as a server that has answered these weeks has.
    for report in reports {
      let status = try ours.request("REPORT", path, body: report, headers: headers).status
      guard status == 207 else { throw GuardFailure("REPORT \(path) answered \(status)") }
    }
    var report = GuardTiming("dav.week-report")
    for (window, body) in zip(windows, reports) {
      try report.turn {
        _ = try ours.request("REPORT", path, body: body, headers: headers)
      } floor: {
        _ = try events.instances(matching: RangeWindows.predicate(window, calendars))
      }
    }
    return [report, trivial]
  }

  /// This process's executable, as the kernel names it (what the store server identifies).
  private static func executable() throws -> String {
    try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")
  }

  /// `utc` as an iCalendar UTC date-time.
  private static func ical(_ utc: Int64) -> String {
    (LocalDateTime(wallClockSeconds: utc)?.iCalendarText ?? "19700101T000000") + "Z"
  }
}
