import ArgumentParser
import Foundation
import Kalends
import KalendsCommandSupport
import KalendsFormats
import KalendsSynthetic

extension KalendsCommand.Bench {
  /// `kalends bench range`: the range-query benchmark, on the user's own store.
  struct Range: ParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "range",
      abstract: "Measure range queries on a store: weeks and months, in one calendar and in all of them.",
      discussion: """
        Draws --windows pseudo-random windows (the same for the same seed, span and calendars) of each \
        kind — a week or 30 days, in one event calendar or in all of them — inside [--from, --to), \
        answers each with `instances(matching:)` after one untimed pass, and prints per kind the \
        median and 99th-percentile latency, the mean number of results and the results per second. \
        Reads only; the store is not changed. Default span: a year either side of today (UTC); on a \
        store made by `bench generate`, --from 2020-01-01 --to 2030-01-01 gives the windows of the \
        benchmark suite.
        """)

    @OptionGroup var global: GlobalOptions

    @Option(
      parsing: .unconditional,
      help: ArgumentHelp("Where windows may start: a date or an instant (default: a year ago).", valueName: "date"))
    var from: String?

    @Option(
      parsing: .unconditional,
      help: ArgumentHelp("Where windows must end (default: a year from now).", valueName: "date"))
    var to: String?

    @Option(help: "Windows of each kind.") var windows: Int = 1_000

    @Option(help: "The seed that places the windows.") var seed: UInt64 = 7

    @Option(help: "Output format.") var format: ObjectFormat = .configured

    func validate() throws {
      guard (1...1_000_000).contains(windows) else { throw ValidationError("--windows must be 1…1000000") }
    }

    func run() throws {
      let today = Int64(Date().timeIntervalSince1970) / 86_400 * 86_400
      let start = try from.map { text throws(CLIError) in try DateArgument(text, option: "--from").instant(in: .utc) }
      let end = try to.map { text throws(CLIError) in try DateArgument(text, option: "--to").instant(in: .utc) }
      let span = (start ?? today - 365 * 86_400)..<(end ?? today + 365 * 86_400)
      guard span.count > RangeWindows.Length.month.seconds + 60 else {
        throw CLIError.invalidInput("--from … --to must span more than 30 days")
      }
      let store = EventStore(store: try global.openStore(readOnly: true, for: "benchmark range queries"))
      let calendars = try store.calendars(for: .events).map(\.id).sorted()
      guard !calendars.isEmpty else { throw CLIError.invalidInput("the store has no event calendar to query") }
      let results = try RangeWindows.all(count: windows, seed: seed, span: span, calendarCount: calendars.count).map {
        kind throws in try Self.measure(kind, store, calendars)
      }
      switch format {
      case .json:
        print(
          JSONValue.object([
            ("store", .string(global.storePath)), ("calendars", .number(Double(calendars.count))),
            ("from", .string(Self.text(span.lowerBound))), ("to", .string(Self.text(span.upperBound))),
            ("windows", .number(Double(windows))), ("seed", .number(Double(seed))),
            ("kinds", .array(results.map(\.json))),
          ]).rendered())
      case .table:
        let header = ["WINDOW", "P50", "P99", "RESULTS (MEAN)", "RESULTS/S"]
        print(TextTable.columns([header] + results.map(\.row)))
      }
    }

    /// `utc` as RFC 3339 text in UTC.
    static func text(_ utc: Int64) -> String {
      ZoneRules.utc.localDateTime(atUTC: utc).map { RFC3339Time.text(for: $0, in: .utc) } ?? "\(utc)"
    }

    /// One kind's latencies, in nanoseconds sorted, and its result counts.
    struct Measurement {
      let name: String
      let nanoseconds: [Int64]
      let results: Int

      func percentile(_ fraction: Double) -> Int64 {
        nanoseconds[min(nanoseconds.count - 1, Int(Double(nanoseconds.count) * fraction))]
      }

      var meanResults: Double { Double(results) / Double(nanoseconds.count) }

      var resultsPerSecond: Double { Double(results) / (Double(nanoseconds.reduce(0, +)) / 1e9) }

      var row: [String] {
        [
          name, Self.duration(percentile(0.5)), Self.duration(percentile(0.99)), String(format: "%.1f", meanResults),
          String(format: "%.0f", resultsPerSecond),
        ]
      }

      var json: JSONValue {
        .object([
          ("window", .string(name)), ("p50Nanoseconds", .number(Double(percentile(0.5)))),
          ("p99Nanoseconds", .number(Double(percentile(0.99)))), ("meanResults", .number(meanResults)),
          ("resultsPerSecond", .number(resultsPerSecond.rounded())),
        ])
      }

      static func duration(_ nanoseconds: Int64) -> String {
        switch nanoseconds {
        case ..<10_000: String(format: "%.2f µs", Double(nanoseconds) / 1e3)
        case ..<1_000_000: String(format: "%.1f µs", Double(nanoseconds) / 1e3)
        default: String(format: "%.2f ms", Double(nanoseconds) / 1e6)
        }
      }
    }

    /// Answers every window of `kind` once untimed (to page the index in), then once timed.
    static func measure(_ kind: RangeWindows, _ store: EventStore, _ calendars: [ObjectID]) throws -> Measurement {
      let predicates = kind.windows.map { RangeWindows.predicate($0, calendars) }
      for predicate in predicates { _ = try store.instances(matching: predicate) }
      var nanoseconds: [Int64] = []
      nanoseconds.reserveCapacity(predicates.count)
      var results = 0
      let clock = ContinuousClock()
      for predicate in predicates {
        let started = clock.now
        let answer = try store.instances(matching: predicate)
        let elapsed = started.duration(to: clock.now)
        nanoseconds.append(elapsed.components.seconds * 1_000_000_000 + elapsed.components.attoseconds / 1_000_000_000)
        results += answer.count
      }
      return Measurement(name: kind.name, nanoseconds: nanoseconds.sorted(), results: results)
    }
  }
}
