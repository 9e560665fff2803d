import Kalends
import KalendsSynthetic
import Testing

@Suite("The rebuild's sort of instances")
struct InstanceEntrySortTests {
  /// Every field of an entry, to compare lists whole.
  private func fields(_ entry: InstanceEntry) -> [Int64] {
    [
      Int64(entry.run), entry.start, Int64(bitPattern: entry.itemHigh), Int64(bitPattern: entry.itemLow),
      entry.occurrence, entry.end, Int64(entry.flags),
    ]
  }

  /// `count` entries of random runs, items and times, whose starts `start` draws.
  private func entries(
    _ count: Int, _ random: inout SeededGenerator, start: (inout SeededGenerator) -> Int64
  ) -> [InstanceEntry] {
    let items = (0..<max(1, count / 4)).map { _ in (UInt64.random(in: 0...3, using: &random), random.next()) }
    return (0..<count).map { index in
      let item = items.randomElement(using: &random)!
      let start = start(&random)
      return InstanceEntry(
        start: start, itemHigh: item.0, itemLow: item.1, occurrence: Int64(index), end: start &+ 3_600,
        clock: UInt8.random(in: 0...1, using: &random), durationClass: UInt8.random(in: 0...3, using: &random),
        flags: UInt8.random(in: 0...7, using: &random))
    }
  }

  /// Sorts `list` with `scratch` and checks it against a comparison sort, every field kept, and the
  /// offsets of the runs it returns.
  private func expectSorted(_ list: [InstanceEntry], scratch: inout InstanceEntry.SortScratch) {
    var sorted = list
    let starts = InstanceEntry.sort(&sorted, scratch: &scratch)
    let expected = list.sorted()
    #expect(sorted.count == list.count)
    // The first difference only: a whole list of 40,000 entries would take minutes to print.
    let difference = sorted.indices.first { fields(sorted[$0]) != fields(expected[$0]) }
    #expect(difference == nil, "\(list.count) entries differ first at \(difference ?? 0)")
    #expect(starts.count == InstanceEntry.runs + 1)
    #expect(
      (0...InstanceEntry.runs).allSatisfy { run in starts[run] == list.filter { Int($0.run) < run }.count })
  }

  /// Lists short and long (8- and 11-bit digits), one scratch for all of them, growing and
  /// shrinking: starts a minute apart over ten years with many equal ones, starts over the whole
  /// calendar, and starts across every 64-bit value (the lowest bits left out of the keys), with
  /// clusters a few seconds wide that only the comparison of equal keys orders.
  @Test func listsComeOutAsAComparisonSortLeavesThem() {
    var random = SeededGenerator(seed: 0x5027)
    var scratch = InstanceEntry.SortScratch()
    let draws: [(inout SeededGenerator) -> Int64] = [
      { 1_700_000_000 + 60 * Int64.random(in: 0..<5_256_000, using: &$0) },
      { 1_700_000_000 + 900 * Int64.random(in: 0..<8, using: &$0) },
      { Int64.random(in: -62_135_596_800...253_402_300_799, using: &$0) },
      { random in
        Bool.random(using: &random)
          ? Int64.random(in: .min ... .max, using: &random)
          : Int64.random(in: 0...1, using: &random) * 1_000_000_000_000 + Int64.random(in: 0..<5, using: &random)
      },
    ]
    for count in [0, 1, 2, 3, 100, 20_000, 1_000, 40_000, 17] {
      for draw in draws { expectSorted(entries(count, &random, start: draw), scratch: &scratch) }
    }
  }
}
