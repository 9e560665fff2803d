import ArgumentParser
import Foundation
import Kalends
import KalendsCommandSupport
import KalendsFormats
import KalendsSynthetic

extension KalendsCommand.Bench {
  /// `kalends bench generate`: fills a new store with a synthetic calendar.
  struct Generate: ParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "generate",
      abstract: "Create a store holding a deterministic synthetic calendar (same seed, same data).",
      discussion: """
        N events over 2020–2029 in 20 calendars: 10 % recurring (daily COUNT, weekly BYDAY, monthly \
        BYSETPOS=-1, one in twenty unbounded), 15 minutes to 3 days long with a few of several weeks, \
        3 % all-day, 2 % floating. Saved a batch of 1,000 per transaction without fsync, then synced.
        """)

    @OptionGroup var global: GlobalOptions

    @Option(help: "How many events.") var events: Int = 1_000_000

    @Option(help: "The seed.") var seed: UInt64 = 1

    @Option(help: "Output format.") var format: ObjectFormat = .configured

    func validate() throws {
      guard events >= 0 else { throw ValidationError("--events must be zero or more") }
    }

    func run() throws {
      if global.client != nil { throw StoreError.access(.ownerOnly("generate benchmark stores")) }
      let path = global.storePath
      guard !FileManager.default.fileExists(atPath: path + "/data.mdb") else {
        throw CLIError(message: "\(path) already holds a store — generate into a new directory", status: .conflict)
      }
      let store = try Store.create(at: path, options: StoreOptions(durability: .noSync))
      let progress = ProgressLine(label: "generating")
      let started = Date()
      try SyntheticCalendar(seed: seed, events: events).load(into: EventStore(store: store)) { saved in
        progress.update(done: saved, total: events)
      }
      try store.sync()
      progress.finish()
      let seconds = Date().timeIntervalSince(started)
      let head = try store.head().position
      let instances = try store.indexedInstanceCount()
      switch format {
      case .json:
        print(
          JSONValue.object([
            ("store", .string(path)), ("events", .number(Double(events))), ("seed", .number(Double(seed))),
            ("records", .number(Double(head.rawValue))), ("instances", .number(Double(instances))),
            ("seconds", .number(seconds)),
          ]).rendered())
      case .table:
        print(
          "generated \(events) events (seed \(seed)) in \(String(format: "%.1f", seconds)) s: "
            + "\(head) records, \(instances) indexed instances, store \(path)")
      }
    }
  }
}
