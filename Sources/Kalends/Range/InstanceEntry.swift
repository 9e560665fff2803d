internal import CPrefetch

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

  /// The memory a sort works in, kept from one sort to the next (fresh memory for every sort cost
  /// more page faults than the sort itself).
  struct SortScratch: Sendable {
    /// As many entries as the longest run.
    var entries: [InstanceEntry] = []
    /// Twice as many sort keys.
    var keys: [UInt64] = []

    init() {}
  }

  /// Puts the entries of one calendar in key order, in place: distributed by run first (a counting
  /// sort, moving each entry straight to its run's next free slot), then each run by
  /// ``sortRun(_:scratch:keys:)``. Returns where each run starts (``runs`` + 1 offsets, the last
  /// one `entries.count`).
  @discardableResult
  static func sort(_ entries: inout [InstanceEntry], scratch: inout SortScratch) -> [Int] {
    var starts = [Int](repeating: 0, count: runs + 1)
    for entry in entries { starts[Int(entry.run) + 1] += 1 }
    for index in 0..<runs { starts[index + 1] += starts[index] }
    var next = starts
    let longestRun = (0..<runs).map { starts[$0 + 1] - starts[$0] }.max() ?? 0
    if scratch.entries.count < longestRun { scratch.entries = Array(repeating: entries[0], count: longestRun) }
    if scratch.keys.count < 2 * longestRun { scratch.keys = Array(repeating: 0, count: 2 * longestRun) }
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
      scratch.entries.withUnsafeMutableBufferPointer { scratchEntries in
        scratch.keys.withUnsafeMutableBufferPointer { keys in
          for slot in 0..<runs where starts[slot + 1] - starts[slot] > 1 {
            sortRun(
              UnsafeMutableBufferPointer(rebasing: entries[starts[slot]..<starts[slot + 1]]), scratch: scratchEntries,
              keys: keys)
          }
        }
      }
    }
    return starts
  }

  /// Sorts the entries of one run by start, item and occurrence. It sorts 8-byte keys rather than
  /// the 48-byte entries: the start's offset in the run above an entry's place, by a
  /// least-significant-digit radix sort over the bits that vary (a pass moves every key once, where
  /// a comparison sort moves each about log₂ n times; the counts of every pass are taken in one
  /// read), 11 bits a pass in long runs (a span of ten years in seconds takes three passes instead
  /// of four) and 8 in short ones (whose counts would cost more than their keys). It then gathers
  /// the entries in that order into `scratch` and copies them back, and puts each group of equal
  /// starts in item and occurrence order. Should the offset and the place not fit in 64 bits
  /// together (a run of 30 million instances over ten thousand years), the offset's lowest bits
  /// are left out of the key and the groups are of equal keys instead. `scratch` holds at least as
  /// many entries as `run`, and `keys` twice as many keys.
  private static func sortRun(
    _ run: UnsafeMutableBufferPointer<InstanceEntry>, scratch: UnsafeMutableBufferPointer<InstanceEntry>,
    keys: UnsafeMutableBufferPointer<UInt64>
  ) {
    let count = run.count
    var (low, high) = (Int64.max, Int64.min)
    for entry in run { (low, high) = (min(low, entry.start), max(high, entry.start)) }
    let span = UInt64(bitPattern: high &- low)
    let indexBits = UInt64.bitWidth - UInt64(count - 1).leadingZeroBitCount
    let dropped = max(0, UInt64.bitWidth - span.leadingZeroBitCount + indexBits - UInt64.bitWidth)
    let spanBits = UInt64.bitWidth - (span >> dropped).leadingZeroBitCount
    var (source, target) = (keys.baseAddress!, keys.baseAddress! + count)
    for index in 0..<count {
      source[index] = (UInt64(bitPattern: run[index].start &- low) >> dropped) << indexBits | UInt64(index)
    }
    let bits = count >= 1 << 14 ? 11 : 8
    let mask = (UInt64(1) << bits) - 1
    let passes = (spanBits + bits - 1) / bits
    var counts = [Int](repeating: 0, count: passes << bits)
    counts.withUnsafeMutableBufferPointer { counts in
      for index in 0..<count {
        let offset = source[index] >> indexBits
        for pass in 0..<passes { counts[pass << bits | Int(offset >> (pass * bits) & mask)] += 1 }
      }
      for pass in 0..<passes {
        var position = 0
        for digit in (pass << bits)..<((pass + 1) << bits) {
          (counts[digit], position) = (position, position + counts[digit])
        }
      }
      for pass in 0..<passes {
        let shift = indexBits + pass * bits
        for index in 0..<count {
          let key = source[index]
          let slot = pass << bits | Int(key >> shift & mask)
          target[counts[slot]] = key
          counts[slot] += 1
        }
        swap(&source, &target)
      }
    }
    let indexMask = (UInt64(1) << indexBits) - 1
    // In key order, the entries are read at random: each is asked for a few ahead of its use.
    let ahead = 64
    for index in 0..<count {
      if index + ahead < count { kalends_prefetch(run.baseAddress! + Int(source[index + ahead] & indexMask)) }
      scratch[index] = run[Int(source[index] & indexMask)]
    }
    run.baseAddress!.update(from: scratch.baseAddress!, count: count)
    orderEqualKeys(run) { UInt64(bitPattern: $0.start &- low) >> dropped }
  }

  /// Puts each group of entries with equal `key` in `run` (sorted by it) in key order (insertion
  /// sort for the usual small groups).
  private static func orderEqualKeys(
    _ run: UnsafeMutableBufferPointer<InstanceEntry>, _ key: (InstanceEntry) -> UInt64
  ) {
    var first = 0
    while first < run.count {
      var next = first + 1
      let value = key(run[first])
      while next < run.count && key(run[next]) == value { next += 1 }
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
