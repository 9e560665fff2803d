import ArgumentParser
import Foundation
import Kalends
import KalendsCommandSupport
import KalendsFormats

extension Harness {
  /// `kalends-harness write`: a steady writer for change-notice measurements and tests.
  struct Write: ParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "write",
      abstract: "Save events one per transaction into the store (created if missing), optionally paced.",
      discussion: """
        Each event is saved with its own transaction into the calendar "bench-writes". With --timings \
        it prints, after each commit returns, its position and the monotonic clock in nanoseconds \
        (comparable across processes on Linux), one line each, flushed.
        """)

    @OptionGroup var global: GlobalOptions

    @Option(help: "How many events.") var events: Int = 1_000

    @Option(help: ArgumentHelp("Wait this long between commits.", valueName: "milliseconds"))
    var intervalMs: Double = 0

    @Flag(help: "Skip fsync on commit (as the benchmarks that measure notices, not disks, do).") var noSync = false

    @Flag(help: "Print 'position nanoseconds' after each commit.") var timings = false

    func validate() throws {
      guard events >= 0 else { throw ValidationError("--events must be zero or more") }
      guard intervalMs >= 0 else { throw ValidationError("--interval-ms must be zero or more") }
    }

    func run() throws {
      try global.requireOwner("run write benchmarks")
      let store = try Store.openOrCreate(
        at: global.storePath, options: StoreOptions(durability: noSync ? .noSync : .full))
      let writer = EventStore(store: store)
      let calendar = try BenchWriter.calendar(in: writer)
      for index in 0..<events {
        let saved = try BenchWriter.saveOne(index, in: calendar, with: writer)
        if timings {
          FileHandle.standardOutput.write(
            Data("\(saved.version.rawValue) \(BenchWriter.monotonicNanoseconds())\n".utf8))
        }
        if intervalMs > 0 { usleep(UInt32(intervalMs * 1_000)) }
      }
    }
  }
}

/// What the change benchmarks write, and their clock.
enum BenchWriter {
  /// The calendar `bench-writes`, created when missing.
  static func calendar(in store: EventStore) throws -> EventCalendar {
    if let existing = try store.calendars(for: .events).first(where: { $0.title == "bench-writes" }) { return existing }
    return try store.save(EventCalendar(title: "bench-writes"))
  }

  /// Saves event number `index` (a one-hour event on a day derived from it) in its own transaction.
  @discardableResult
  static func saveOne(_ index: Int, in calendar: EventCalendar, with store: EventStore) throws -> Event {
    let day = index % 28 + 1
    let hour = index % 20
    let start = LocalDateTime(year: 2026, month: 12, day: day, hour: hour, minute: 0)!
    let end = LocalDateTime(year: 2026, month: 12, day: day, hour: hour + 1, minute: 0)!
    return try store.save(
      Event(calendarID: calendar.id, title: "write \(index)", start: start, end: end, timeZone: "UTC"),
      span: .thisEvent)
  }

  /// The machine's monotonic clock in nanoseconds (Dispatch's uptime: `CLOCK_MONOTONIC` on Linux):
  /// one clock for every process of the machine.
  static func monotonicNanoseconds() -> UInt64 { DispatchTime.now().uptimeNanoseconds }
}
