import ArgumentParser
import Foundation
import Kalends
import KalendsSynthetic

extension Harness {
  /// `kalends-harness contacts`: a vCard file imported through the library, then name-prefix
  /// searches on the book it made (issue 31's benchmark).
  struct Contacts: ParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "contacts",
      abstract: "Time a vCard import into a new store and name-prefix searches on it.",
      discussion: """
        Imports FILE into a new store under DIR with `importVCards` (one transaction, fsync), \
        --runs times into fresh stores, and prints the median; then runs --searches name searches \
        on the last store, each a prefix of 1 to 4 letters of a name word the file holds, and \
        prints the median and 90th percentile per search with the median count of contacts found. \
        Then adds the birthdays calendar and times --weeks queries of a random week of 2027 in it \
        (`events(matching:)`: the birthdays derived from the contacts' dates, each contact read), \
        and one of the whole year. The store is removed afterwards.
        """)

    @Option(help: "The .vcf file (Tests/Oracles/vcard_oracle.py generate N FILE).") var file: String
    @Option(help: "A new directory for the stores (removed afterwards).") var dir: String
    @Option(help: "Imports, each into a new store.") var runs: Int = 3
    @Option(help: "Searches timed.") var searches: Int = 1_000
    @Option(help: "Week queries of the birthdays calendar timed.") var weeks: Int = 200

    func validate() throws {
      guard runs > 0, searches > 0, weeks > 0 else {
        throw ValidationError("--runs, --searches and --weeks must be positive")
      }
    }

    func run() throws {
      let bytes = Array(try Data(contentsOf: URL(fileURLWithPath: file)))
      try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
      defer { try? FileManager.default.removeItem(atPath: dir) }
      var importTimes: [Double] = []
      var store: EventStore?
      var imported = VCardImport()
      for round in 0..<runs {
        let path = dir + "/store\(round)"
        let fresh = EventStore(store: try Store.create(at: path))
        let started = DispatchTime.now().uptimeNanoseconds
        imported = try fresh.contactStore.importVCards(bytes)
        importTimes.append(Double(DispatchTime.now().uptimeNanoseconds - started) / 1e9)
        store = fresh
        if round < runs - 1 { try? FileManager.default.removeItem(atPath: path) }
      }
      guard let store else { return }
      // Prefixes of the name words in the book, drawn with a fixed seed.
      var words = Set<String>()
      for contact in try store.contactStore.contacts().prefix(5_000) {
        for name in [contact.givenName, contact.familyName, contact.organizationName].compactMap({ $0 }) {
          words.formUnion(name.split(separator: " ").map { String($0) })
        }
      }
      let pool = words.sorted()
      var generator = SeededGenerator(seed: 2026)
      var searchTimes: [Double] = []
      var found: [Double] = []
      for _ in 0..<searches {
        let word = pool[Int(generator.next() % UInt64(pool.count))]
        let prefix = String(word.prefix(1 + Int(generator.next() % 4)))
        let started = DispatchTime.now().uptimeNanoseconds
        let result = try store.contactStore.contacts(matching: .name(prefix))
        searchTimes.append(Double(DispatchTime.now().uptimeNanoseconds - started) / 1e3)
        found.append(Double(result.count))
      }
      // The birthdays calendar: a week of 2027 at random, then the whole year.
      try store.addBirthdaysCalendar()
      let year = LocalDateTime(year: 2027, month: 1, day: 1)!.wallClockSeconds
      var weekTimes: [Double] = []
      var weekCounts: [Double] = []
      for _ in 0..<weeks {
        let start = year + Int64(generator.next() % 358) * 86_400
        let predicate = EventPredicate(start: start, end: start + 7 * 86_400, calendars: [BirthdaysCalendar.id])
        let started = DispatchTime.now().uptimeNanoseconds
        let events = try store.events(matching: predicate)
        weekTimes.append(Double(DispatchTime.now().uptimeNanoseconds - started) / 1e3)
        weekCounts.append(Double(events.count))
      }
      let yearStarted = DispatchTime.now().uptimeNanoseconds
      let yearCount = try store.events(
        matching: EventPredicate(start: year, end: year + 365 * 86_400, calendars: [BirthdaysCalendar.id])
      ).count
      let yearTime = Double(DispatchTime.now().uptimeNanoseconds - yearStarted) / 1e6
      let size = Double(bytes.count) / 1e6
      print(
        "import of \(imported.contactsCreated) contacts (\(String(format: "%.1f", size)) MB), median of \(runs): "
          + String(format: "%.2f s", Self.percentile(importTimes, 0.5)))
      print(
        "name-prefix search (\(searches), prefixes of 1–4 letters): "
          + String(
            format: "p50 %.0f µs, p90 %.0f µs, median %.0f contacts found", Self.percentile(searchTimes, 0.5),
            Self.percentile(searchTimes, 0.9), Self.percentile(found, 0.5)))
      print(
        "birthdays calendar, a week of 2027 (\(weeks) weeks): "
          + String(
            format: "p50 %.0f µs, p90 %.0f µs, median %.0f birthdays; the whole year: %d in %.1f ms",
            Self.percentile(weekTimes, 0.5), Self.percentile(weekTimes, 0.9), Self.percentile(weekCounts, 0.5),
            yearCount, yearTime))
    }

    static func percentile(_ values: [Double], _ fraction: Double) -> Double {
      let sorted = values.sorted()
      return sorted[min(sorted.count - 1, Int(Double(sorted.count) * fraction))]
    }
  }
}
