import KalendsSynthetic
import Testing

@testable import Kalends

/// The order of a range query's results, `EventInstance.precedes` (by start, then identifier, then
/// occurrence): sorted runs merged, and many calendars' instances in any order sorted by the radix
/// sort. Checked against a comparison sort, on runs built to stress the radix sort's cases.
@Suite("Merging a query's runs")
struct InstanceRunsTests {
  /// `runCount` runs of random instances, each sorted, back to back, and where each run ends. Starts
  /// are `base` plus a multiple of `step` below `slots × step`: few slots make many equal starts.
  /// Identifiers share their first `sharedBits` bits (the rest random), so that the radix key's
  /// identifier prefix often ties too.
  private func runs(
    _ runCount: Int, perRun: ClosedRange<Int>, base: Int64, step: Int64, slots: Int64, sharedBits: Int,
    _ random: inout SeededGenerator
  ) -> ([EventInstance], [Int]) {
    var instances: [EventInstance] = []
    var ends: [Int] = []
    let calendar = ObjectID(bytes: (0..<16).map { _ in UInt8.random(in: 0...255, using: &random) })!
    let prefix = random.next()
    for _ in 0..<runCount {
      var run: [EventInstance] = (0..<Int.random(in: perRun, using: &random)).map { _ in
        var high = random.next()
        if sharedBits > 0 {
          let keep = UInt64.max << UInt64(64 - sharedBits)
          high = prefix & keep | high & ~keep
        }
        var bytes: [UInt8] = []
        withUnsafeBytes(of: high.bigEndian) { bytes.append(contentsOf: $0) }
        withUnsafeBytes(of: random.next().bigEndian) { bytes.append(contentsOf: $0) }
        let start = base &+ step &* Int64.random(in: 0..<slots, using: &random)
        return EventInstance(
          id: ObjectID(bytes: bytes)!, calendarID: calendar,
          occurrenceDate: LocalDateTime(unchecked: start), start: start, end: start &+ 3_600, isRecurring: false,
          isDetached: false, isAllDay: false)
      }
      run.sort(by: EventInstance.precedes)
      instances += run
      ends.append(instances.count)
    }
    return (instances, ends)
  }

  @Test(
    "equal to a comparison sort",
    arguments: [
      // (runs, slots, step, shared identifier bits): a week of 20 calendars on a 15-minute grid;
      // every start equal; identifiers equal in all the prefix the radix key holds; starts that span
      // more than the radix key holds (sorted by comparisons); two runs.
      (20, 672, 900, 0), (20, 1, 1, 0), (7, 40, 60, 40), (5, 50, 1 << 30, 3), (2, 100, 60, 0), (30, 4, 1, 63),
    ] as [(Int, Int64, Int64, Int)])
  func mergesLikeASort(_ shape: (Int, Int64, Int64, Int)) {
    let (runCount, slots, step, shared) = shape
    var random = SeededGenerator(seed: UInt64(runCount * 1_000 + shared))
    for round in 0..<20 {
      let (instances, ends) = runs(
        runCount, perRun: 0...60, base: 1_700_000_000 - Int64(round) * 86_400, step: step, slots: slots,
        sharedBits: shared, &random)
      // Sorted runs merged, and the same instances in any order put in order.
      let merged = InstanceRuns.merged(instances, runEnds: ends, sorted: true)
      let ordered = InstanceRuns.ordered(instances.shuffled(using: &random))
      let expected = instances.sorted(by: EventInstance.precedes)
      #expect(merged.count == expected.count, "round \(round)")
      let difference = (0..<min(merged.count, expected.count)).first { merged[$0] != expected[$0] }
      #expect(difference == nil, "round \(round): first out of order at \(difference ?? -1) of \(merged.count)")
      #expect(ordered.count == expected.count, "round \(round)")
      let misplaced = (0..<min(ordered.count, expected.count)).first { ordered[$0] != expected[$0] }
      #expect(misplaced == nil, "round \(round): first out of order at \(misplaced ?? -1) of \(ordered.count)")
    }
  }
}
