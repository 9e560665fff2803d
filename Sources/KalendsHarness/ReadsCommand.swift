import ArgumentParser
import Foundation
import Kalends
import KalendsSynthetic

extension Harness {
  /// `kalends-harness reads`: what recording an app's reads costs (issue 47's benchmark).
  struct Reads: ParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "reads",
      abstract: "Time an app's week queries with its reads recorded and not, in the same run.",
      discussion: """
        Loads the synthetic calendar (--events, seed 1) into a new store under DIR (durable, as a \
        server's), registers an app with full access to calendars, and asks through its session \
        --queries week windows of one calendar each way — `instances(matching:)` and \
        `events(matching:)` — in alternating rounds with the recording of reads on and off \
        (`Store.recordReads`, which nothing that ships turns off), so that drift of the machine \
        falls on both alike. Prints the p50 of each and their ratio. The store is removed \
        afterwards.
        """)

    @Option(help: "A new directory for the store (removed afterwards).") var dir: String
    @Option(help: "Events in the synthetic store.") var events: Int = 200_000
    @Option(help: "Queries timed for each of the four cases.") var queries: Int = 4_000

    func validate() throws {
      guard events > 0, queries >= 20 else { throw ValidationError("--events must be positive, --queries ≥ 20") }
    }

    func run() throws {
      try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
      defer { try? FileManager.default.removeItem(atPath: dir) }
      let store = try Store.create(at: dir + "/store")
      let owner = EventStore(store: store)
      let synthetic = SyntheticCalendar(seed: 1, events: events)
      try synthetic.load(into: owner)
      let app = "dev.kalends.bench.reader"
      try owner.register(Client(id: app, name: "Bench reader", usageDescriptions: [.calendarsFull: "Measures reads."]))
      try owner.privacySettings().setAccess(.fullAccess, for: app, service: .calendars)
      let session = try owner.session(for: app)
      let calendars = synthetic.calendars().map(\.id)
      let windows = RangeWindows(.week, .oneCalendar).windows
      var times: [String: [Double]] = [:]
      var results: [String: Int] = [:]
      let rounds = 20
      var next = 0
      for round in 0..<(2 * rounds) {
        let recorded = round % 2 == 0
        store.recordReads(recorded)
        for _ in 0..<(queries / rounds) {
          let predicate = RangeWindows.predicate(windows[next % windows.count], calendars)
          next += 1
          for method in ["instances", "events"] {
            let started = DispatchTime.now().uptimeNanoseconds
            let count =
              method == "instances"
              ? try session.instances(matching: predicate).count : try session.events(matching: predicate).count
            let key = "\(method) \(recorded ? "recorded" : "not recorded")"
            times[key, default: []].append(Double(DispatchTime.now().uptimeNanoseconds - started) / 1e3)
            results[method, default: 0] += count
          }
        }
      }
      store.recordReads(true)
      try store.flushUses()
      let reads = try PrivacyAudit(store: store).uses(client: app).reduce(0) { $0 + $1.count }
      for method in ["instances", "events"] {
        let on = Self.median(times["\(method) recorded"] ?? [])
        let off = Self.median(times["\(method) not recorded"] ?? [])
        print(
          String(
            format: "%@(matching:), a week of one calendar (%.1f results on average): recorded p50 %.1f µs, "
              + "not recorded %.1f µs: %.3f×", method, Double(results[method] ?? 0) / Double(next), on, off,
            on / off))
      }
      print("reads recorded in the log: \(reads) (of \(queries) × 2 asked with recording on)")
    }

    static func median(_ values: [Double]) -> Double {
      let sorted = values.sorted()
      return sorted.isEmpty ? 0 : sorted[sorted.count / 2]
    }
  }
}
