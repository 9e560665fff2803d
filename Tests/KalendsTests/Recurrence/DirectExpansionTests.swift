import Kalends
import KalendsSynthetic
import Testing

/// A set of one rule with one time of day, in a zone whose offsets span less than a day, and without
/// RDATEs or EXDATEs, is expanded without merging or buffering once DTSTART is behind it. Adding
/// DTSTART as an RDATE changes none of its occurrences (a duplicate is dropped) but takes the
/// general path, which these tests compare it with, over random rules, zones and windows.
@Suite("Direct expansion of one-rule sets")
struct DirectExpansionTests {
  /// The oracle's zones, and zones with unusual histories: a 30-minute daylight-saving change, a
  /// negative one, a skipped day (Apia, 2011), offsets spanning more than a day (Kiritimati), and a
  /// zone without daylight-saving time.
  static let zones =
    RandomRecurrenceCase.zones + [
      "Australia/Lord_Howe", "Europe/Dublin", "Pacific/Apia", "Pacific/Kiritimati", "America/St_Johns", "UTC",
    ]

  @Test func randomOneRuleSetsExpandAsTheGeneralPathDoes() throws {
    var random = SeededGenerator(seed: 0xD1EC7)
    var compared = 0
    var occurrences = 0
    var edges = 0
    for _ in 0..<1_500 {
      let kind = random.pick(["zoned", "zoned", "zoned", "floating", "allday"])
      let start = RandomRecurrenceCase.randomStart(allDay: kind == "allday", using: &random)
      let rule = try RandomRecurrenceCase.randomRule(start: start, kind: kind, allowUntil: true, using: &random)
      let zone = kind == "zoned" ? try ZoneRules.named(random.pick(Self.zones)) : nil
      let duration = kind == "allday" ? Int64(random.int(1...3)) * 86_400 : Int64(random.pick([0, 900, 3_600, 90_000]))
      let direct = try RecurrenceSet(
        start: start, isAllDay: kind == "allday", zone: zone, duration: duration, rules: [rule])
      let general = try RecurrenceSet(
        start: start, isAllDay: kind == "allday", zone: zone, duration: duration, rules: [rule],
        recurrenceDates: [start])
      let viewer = kind == "zoned" ? nil : try ZoneRules.named(random.pick(Self.zones))
      for _ in 0..<3 {
        // Windows from before DTSTART to decades after it, some starting mid-series.
        let day = Int64(random.int(-400...9_000))
        let from: Int64 = start.wallClockSeconds + day * 86_400 + Int64(random.int(0...86_399))
        let lengths: [Int64] = [1, 3_600, 86_400, 7 * 86_400, 400 * 86_400, 20 * 365 * 86_400]
        let to = from + random.pick(lengths)
        let expected = Array(general.occurrences(from: from, to: to, viewerZone: viewer).prefix(2_000))
        let actual = Array(direct.occurrences(from: from, to: to, viewerZone: viewer).prefix(2_000))
        #expect(actual == expected, "\(rule) from \(start) in \(zone?.identifier ?? "floating"), [\(from), \(to))")
        compared += 1
        occurrences += expected.count
        // Windows whose bounds fall on an occurrence's start or end: the overlap rules' edges.
        guard let edge = expected.isEmpty ? nil : random.pick(expected) else { continue }
        for (from, to) in [
          (edge.end, edge.end + 86_400), (edge.start, edge.start + 1), (edge.start - 3_600, edge.start),
        ] {
          let expected = Array(general.occurrences(from: from, to: to, viewerZone: viewer))
          #expect(
            Array(direct.occurrences(from: from, to: to, viewerZone: viewer)) == expected, "\(rule) [\(from), \(to))")
          edges += 1
        }
      }
    }
    #expect(compared == 4_500)
    #expect(edges > 1_500)
    // The windows reach occurrences, not only empty answers.
    #expect(occurrences > 100_000)
  }

  @Test func aSeriesAcrossDaylightSavingChangesIsAscendingAndComplete() throws {
    let zone = try ZoneRules.named("America/New_York")
    let start = LocalDateTime(year: 2026, month: 3, day: 1, hour: 2, minute: 30)!
    let set = try RecurrenceSet(
      start: start, zone: zone, duration: 3_600, rules: [RecurrenceRule(parsing: "FREQ=DAILY;COUNT=300")])
    let all = Array(set.occurrences(from: .min, to: .max))
    #expect(all.count == 300)
    #expect(zip(all, all.dropFirst()).allSatisfy { $0.start < $1.start })
    // 02:30 on March 8 does not exist in New York: it starts an hour later on the wall clock, 07:30 UTC.
    let gap = try #require(all.first { $0.local == LocalDateTime(year: 2026, month: 3, day: 8, hour: 2, minute: 30)! })
    #expect(gap.start == zone.resolve(LocalDateTime(year: 2026, month: 3, day: 8, hour: 3, minute: 30)!))
  }
}
