/// One instance of the date-range index as a rebuild holds it before it is packed into blocks
/// (``InstanceBlocks``): its run within its calendar (clock and duration class), its key within
/// the run and its end. 48 bytes.
struct InstanceEntry: Comparable, Sendable {
  let start: Int64
  let itemHigh: UInt64
  let itemLow: UInt64
  let occurrence: Int64
  let end: Int64
  /// The run within the calendar, numbered in key order: `clock << 2 | duration class`.
  let run: UInt8
  let flags: UInt8

  /// How many runs a calendar has: two clocks, four duration classes.
  static let runs = 8

  init(
    start: Int64, itemHigh: UInt64, itemLow: UInt64, occurrence: Int64, end: Int64, clock: UInt8,
    durationClass: UInt8, flags: UInt8
  ) {
    (self.start, self.itemHigh, self.itemLow, self.occurrence, self.end) = (start, itemHigh, itemLow, occurrence, end)
    (run, self.flags) = (clock << 2 | durationClass, flags)
  }

  static func < (a: InstanceEntry, b: InstanceEntry) -> Bool {
    (a.run, a.start, a.itemHigh, a.itemLow, a.occurrence) < (b.run, b.start, b.itemHigh, b.itemLow, b.occurrence)
  }

  static func == (a: InstanceEntry, b: InstanceEntry) -> Bool {
    (a.run, a.start, a.itemHigh, a.itemLow, a.occurrence) == (b.run, b.start, b.itemHigh, b.itemLow, b.occurrence)
  }

  /// The clock and duration class of a run.
  static func clockAndClass(ofRun run: Int) -> (clock: UInt8, durationClass: UInt8) {
    (UInt8(run >> 2), UInt8(run & 3))
  }

  /// Puts the entries of one calendar in key order, in place (no second copy of them): distributed
  /// by run first (a counting sort, moving each entry straight to its run's next free slot), then
  /// each run by ``sortRun(_:scratch:)``, with `scratch` grown to the longest run (kept from one call
  /// to the next: fresh memory for every sort cost more page faults than the sort itself). Returns
  /// where each run starts (``runs`` + 1 offsets, the last one `entries.count`).
  @discardableResult
  static func sort(_ entries: inout [InstanceEntry], scratch: inout [InstanceEntry]) -> [Int] {
    var starts = [Int](repeating: 0, count: runs + 1)
    for entry in entries { starts[Int(entry.run) + 1] += 1 }
    for index in 0..<runs { starts[index + 1] += starts[index] }
    var next = starts
    let longestRun = (0..<runs).map { starts[$0 + 1] - starts[$0] }.max() ?? 0
    if scratch.count < longestRun { scratch = Array(repeating: entries[0], count: longestRun) }
    entries.withUnsafeMutableBufferPointer { entries in
      for slot in 0..<runs {
        while next[slot] < starts[slot + 1] {
          var entry = entries[next[slot]]
          var home = Int(entry.run)
          while home != slot {
            swap(&entry, &entries[next[home]])
            next[home] += 1
            home = Int(entry.run)
          }
          entries[next[slot]] = entry
          next[slot] += 1
        }
      }
      scratch.withUnsafeMutableBufferPointer { scratch in
        for slot in 0..<runs where starts[slot + 1] - starts[slot] > 1 {
          sortRun(UnsafeMutableBufferPointer(rebasing: entries[starts[slot]..<starts[slot + 1]]), scratch: scratch)
        }
      }
    }
    return starts
  }

  /// Sorts the entries of one run by start, item and occurrence: a least-significant-digit radix
  /// sort on the start, over the bits that vary within the run (a pass moves every entry once, where
  /// a comparison sort moves each about log₂ n times), 11 bits a pass in long runs (a span of
  /// ten years in seconds takes three passes instead of four) and 8 in short ones (whose counts
  /// would cost more than their entries), then each group of equal starts by item and occurrence.
  /// `scratch` holds at least as many entries as `run`.
  private static func sortRun(
    _ run: UnsafeMutableBufferPointer<InstanceEntry>, scratch: UnsafeMutableBufferPointer<InstanceEntry>
  ) {
    var (low, high) = (Int64.max, Int64.min)
    for entry in run { (low, high) = (min(low, entry.start), max(high, entry.start)) }
    let span = UInt64(bitPattern: high &- low)
    var (source, target) = (run.baseAddress!, scratch.baseAddress!)
    let bits: UInt64 = run.count >= 1 << 14 ? 11 : 8
    let (digits, mask) = (1 << Int(bits), (UInt64(1) << bits) - 1)
    var counts = [Int](repeating: 0, count: digits)
    var shift: UInt64 = 0
    while shift < 64 && span >> shift != 0 {
      for index in 0..<digits { counts[index] = 0 }
      for index in 0..<run.count {
        counts[Int(UInt64(bitPattern: source[index].start &- low) >> shift & mask)] += 1
      }
      var position = 0
      for index in 0..<digits { (counts[index], position) = (position, position + counts[index]) }
      for index in 0..<run.count {
        let digit = Int(UInt64(bitPattern: source[index].start &- low) >> shift & mask)
        (target + counts[digit]).initialize(to: source[index])
        counts[digit] += 1
      }
      swap(&source, &target)
      shift += bits
    }
    if source != run.baseAddress! { run.baseAddress!.update(from: source, count: run.count) }
    // Equal starts: by item and occurrence (insertion sort for the usual small groups).
    var first = 0
    while first < run.count {
      var next = first + 1
      while next < run.count && run[next].start == run[first].start { next += 1 }
      if next - first > 32 {
        run[first..<next].sort()
      } else if next - first > 1 {
        for index in (first + 1)..<next {
          let entry = run[index]
          var slot = index
          while slot > first && entry < run[slot - 1] {
            run[slot] = run[slot - 1]
            slot -= 1
          }
          run[slot] = entry
        }
      }
      first = next
    }
  }
}
