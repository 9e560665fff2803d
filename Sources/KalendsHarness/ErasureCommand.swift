import ArgumentParser
import Foundation
import Kalends
import KalendsCommandSupport
import KalendsFormats

extension Harness {
  /// `kalends-harness erasure`: what erasable content costs (issue 32).
  struct Erasure: ParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "erasure",
      abstract: "Measure the cost of sealed records on batched saves and replay, and the time to erase an object.",
      discussion: """
        Writes the same events into two fresh stores under DIR, one with saves in format version 3 \
        (content sealed behind a salted commitment, as Kalends writes them) and one in format 1 (as \
        before), in batches of --batch events a transaction, the stores alternated batch by batch; \
        then rebuilds each store's projections --rounds times, alternated; then, in the sealed \
        store, saves --objects events --records times each and erases each. Prints medians and \
        ratios (sealed ÷ legacy). Commits skip fsync: the figures are CPU, not the disk.
        """)

    @Option(help: "A new directory for the two stores (removed afterwards).") var dir: String

    @Option(help: "How many events each store holds.") var events: Int = 100_000

    @Option(help: "Events per transaction.") var batch: Int = 1_000

    @Option(help: "Rebuilds of each store.") var rounds: Int = 5

    @Option(help: "Objects erased.") var objects: Int = 5

    @Option(help: "Records (saves) of each erased object.") var records: Int = 1_000

    func validate() throws {
      guard events > 0, batch > 0, rounds > 0, objects > 0, records > 0 else {
        throw ValidationError("every count must be positive")
      }
    }

    func run() throws {
      try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
      defer { try? FileManager.default.removeItem(atPath: dir) }
      var legacyOptions = StoreOptions(durability: .noSync)
      legacyOptions.writesLegacyRecords = true
      let sealed = EventStore(store: try Store.create(at: dir + "/sealed", options: StoreOptions(durability: .noSync)))
      let legacy = EventStore(store: try Store.create(at: dir + "/legacy", options: legacyOptions))
      let calendars = try [sealed, legacy].map { try $0.save(EventCalendar(title: "Bench")) }

      var saveTimes: [[Double]] = [[], []]
      var written = 0
      while written < events {
        let count = min(batch, events - written)
        for (index, store) in [sealed, legacy].enumerated() {
          let batchEvents = (written..<(written + count)).map { Self.event($0, in: calendars[index].id) }
          let started = DispatchTime.now().uptimeNanoseconds
          _ = try store.save(batchEvents, span: .thisEvent)
          saveTimes[index].append(Double(DispatchTime.now().uptimeNanoseconds - started) / Double(count))
        }
        written += count
      }
      var rebuildTimes: [[Double]] = [[], []]
      for _ in 0..<rounds {
        for (index, store) in [sealed, legacy].enumerated() {
          let started = DispatchTime.now().uptimeNanoseconds
          _ = try store.store.rebuildProjections()
          rebuildTimes[index].append(Double(DispatchTime.now().uptimeNanoseconds - started) / 1e9)
        }
      }
      var eraseTimes: [Double] = []
      for object in 0..<objects {
        var event = try sealed.save(Self.event(object, in: calendars[0].id), span: .thisEvent)
        for change in 1..<records {
          event.title = "Erase me \(object) v\(change)"
          event = try sealed.save(event, span: .thisEvent)
        }
        let started = DispatchTime.now().uptimeNanoseconds
        let erasure = try sealed.privacySettings().erase(.event(event.id))
        eraseTimes.append(Double(DispatchTime.now().uptimeNanoseconds - started) / 1e6)
        guard erasure.erasedPositions.count == records else {
          throw ValidationError("erased \(erasure.erasedPositions.count) records, not \(records)")
        }
      }
      let head = try sealed.store.head().position
      let save = saveTimes.map(Self.median)
      let rebuild = rebuildTimes.map(Self.median)
      print("batched saves (\(events) events, \(batch) a transaction), median per event:")
      print(
        String(
          format: "  sealed (format 3) %.2f µs   legacy (format 1) %.2f µs   ratio %.3f×",
          save[0] / 1e3, save[1] / 1e3, save[0] / save[1]))
      print("replay (rebuildProjections, \(rounds) rounds each, alternated), median:")
      print(
        String(format: "  sealed %.3f s   legacy %.3f s   ratio %.3f×", rebuild[0], rebuild[1], rebuild[0] / rebuild[1])
      )
      print("erase one event of \(records) records in a log of \(head.rawValue) records (\(objects) objects):")
      print(
        String(
          format: "  median %.1f ms (min %.1f, max %.1f)", Self.median(eraseTimes), eraseTimes.min()!, eraseTimes.max()!
        ))
      guard try sealed.store.verify().isIntact, try sealed.store.verifyProjections().isConsistent else {
        throw ValidationError("the sealed store does not verify after the erasures")
      }
      print("the sealed store verifies after the erasures")
    }

    /// Event `index`: an hour on a day derived from it, with a title, notes and a place.
    static func event(_ index: Int, in calendar: ObjectID) -> Event {
      let day = LocalDateTime(year: 2026, month: 1, day: 1)!.wallClockSeconds / 86_400 + Int64(index % 3_650)
      let start = LocalDateTime(wallClockSeconds: day * 86_400 + Int64(9 + index % 8) * 3_600)!
      var event = Event(
        calendarID: calendar, title: "Meeting \(index)", start: start,
        end: LocalDateTime(wallClockSeconds: start.wallClockSeconds + 3_600)!, timeZone: "Europe/Berlin")
      event.notes = "Agenda for meeting \(index): review, plan, decide."
      event.location = "Room \(index % 40)"
      return event
    }

    static func median(_ values: [Double]) -> Double {
      let sorted = values.sorted()
      return sorted.count % 2 == 1
        ? sorted[sorted.count / 2] : (sorted[sorted.count / 2 - 1] + sorted[sorted.count / 2]) / 2
    }
  }
}
