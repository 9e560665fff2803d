import Foundation
import Kalends
import KalendsSynthetic
import Testing

/// A property-based fuzz run of the reader and the import: valid files mutated at random (seeded,
/// so a failure reproduces) must either import or fail with a typed error, never crash, and never
/// take long. `KALENDS_FUZZ_ITERATIONS` (default 200 per file) and `KALENDS_FUZZ_SEED` set the run.
@Suite("iCalendar reader under random mutations")
struct ICalendarMutationTests {
  private static let environment = ProcessInfo.processInfo.environment
  private static let iterations = Int(environment["KALENDS_FUZZ_ITERATIONS"] ?? "") ?? 200
  private static let seed = UInt64(environment["KALENDS_FUZZ_SEED"] ?? "") ?? 0xF022_2026

  /// `bytes` with one to four random edits: bytes flipped, inserted, deleted or duplicated, lines
  /// broken or folded, digits changed, the end cut off.
  static func mutated(_ bytes: [UInt8], _ random: inout SeededGenerator) -> [UInt8] {
    var out = bytes
    let interesting: [UInt8] = Array(":;=,\"\\\r\n \t0123456789ZT-+/".utf8) + [0x00, 0x80, 0xC3, 0xE2, 0xFF]
    for _ in 0..<random.int(1...4) {
      guard !out.isEmpty else { break }
      let at = random.int(0...out.count - 1)
      switch random.int(0...7) {
      case 0: out[at] ^= UInt8(1 << random.int(0...7))
      case 1: out.insert(random.pick(interesting), at: at)
      case 2: out.removeSubrange(at..<min(out.count, at + random.int(1...40)))
      case 3:
        let piece = out[at..<min(out.count, at + random.int(1...200))]
        out.insert(contentsOf: piece, at: random.int(0...out.count))
      case 4: out.insert(contentsOf: [13, 10], at: at)
      case 5: out.insert(contentsOf: [13, 10, 32], at: at)
      case 6:
        if (48...57).contains(out[at]) {
          out[at] = UInt8(48 + random.int(0...9))
        } else {
          out[at] = random.pick(interesting)
        }
      default: out.removeSubrange(at...)
      }
    }
    return out
  }

  @Test func mutatedFilesImportOrFailWithATypedErrorQuickly() throws {
    var inputs: [(String, [UInt8])] = []
    for name in ["google", "outlook", "apple", "thunderbird", "thisandfuture", "custom-zone"] {
      inputs.append((name, try ICalendarTesting.fixture(name)))
    }
    inputs.append(("random", Array(try RandomCalendar(seed: 7, events: 8).text.utf8)))
    var random = SeededGenerator(seed: Self.seed)
    let clock = ContinuousClock()
    var outcomes: [String: Int] = [:]
    var slowest: Duration = .zero
    try withStore { store, _ in
      let events = EventStore(store: store)
      for (name, bytes) in inputs {
        for iteration in 0..<Self.iterations {
          let input = Self.mutated(bytes, &random)
          let began = clock.now
          do {
            let result = try events.importICalendar(
              input, into: .newCalendar(EventCalendar(title: "\(name) \(iteration)")))
            outcomes["imported", default: 0] += 1
            _ = try events.exportICalendar(calendars: [result.calendarID]).serialized()
          } catch StoreError.iCalendar(let error) {
            outcomes["refused", default: 0] += 1
            #expect(error.line >= 0 && !error.description.isEmpty)
          } catch {
            Issue.record("\(name) #\(iteration): not a typed iCalendar error: \(error)")
          }
          let took = clock.now - began
          slowest = max(slowest, took)
          #expect(took < .seconds(10), "\(name) #\(iteration) took \(took): a hang?")
        }
      }
      let verification = try store.verifyProjections()
      #expect(verification.isConsistent)
    }
    print("iCalendar mutations (seed \(Self.seed)): \(outcomes), slowest \(slowest)")
    #expect((outcomes["imported"] ?? 0) > 0 && (outcomes["refused"] ?? 0) > 0)
  }
}
