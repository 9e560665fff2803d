internal import CPrefetch

/// One instance of the date-range index as a rebuild holds it before it is packed into blocks
/// (``InstanceBlocks``): its run within its calendar (clock and duration class), its key within
/// the run and its end. 48 bytes.
package struct InstanceEntry: Comparable, Sendable {
  package let start: Int64
  package let itemHigh: UInt64
  package let itemLow: UInt64
  package let occurrence: Int64
  package let end: Int64
  /// The run within the calendar, numbered in key order: `clock << 2 | duration class`.
  package let run: UInt8
  package let flags: UInt8

  /// How many runs a calendar has: two clocks, four duration classes.
  package static let runs = 8

  package init(
    start: Int64, itemHigh: UInt64, itemLow: UInt64, occurrence: Int64, end: Int64, clock: UInt8,
    durationClass: UInt8, flags: UInt8
  ) {
    (self.start, self.itemHigh, self.itemLow, self.occurrence, self.end) = (start, itemHigh, itemLow, occurrence, end)
    (run, self.flags) = (clock << 2 | durationClass, flags)
  }

  package static func < (a: InstanceEntry, b: InstanceEntry) -> Bool {
    (a.run, a.start, a.itemHigh, a.itemLow, a.occurrence) < (b.run, b.start, b.itemHigh, b.itemLow, b.occurrence)
  }

  package static func == (a: InstanceEntry, b: InstanceEntry) -> Bool {
    (a.run, a.start, a.itemHigh, a.itemLow, a.occurrence) == (b.run, b.start, b.itemHigh, b.itemLow, b.occurrence)
  }

  /// The clock and duration class of a run.
  static func clockAndClass(ofRun run: Int) -> (clock: UInt8, durationClass: UInt8) {
    (UInt8(run >> 2), UInt8(run & 3))
  }

  /// The memory a sort works in, kept from one sort to the next (fresh memory for every sort cost
  /// more page faults than the sort itself).
  package struct SortScratch: Sendable {
    /// Room for as many entries as the longest list sorted: the sorted entries are gathered here,
    /// and the list's own buffer takes its place.
    var entries: [InstanceEntry] = []
    /// Twice as many sort keys.
    var keys: [UInt64] = []

    package init() {}
  }

  /// Bits of a sort key above the start: the run.
  private static let runBits = 3

  /// Puts the entries of one calendar in key order: by run, start, item and occurrence. Returns
  /// where each run starts (``runs`` + 1 offsets, the last one `entries.count`).
  ///
  /// It sorts 8-byte keys rather than the 48-byte entries: the run, above the start's offset from
  /// the earliest, above the entry's place, by a least-significant-digit radix sort over the bits
  /// that vary (a pass moves every key once, where a comparison sort moves each about log₂ n
  /// times; the counts of every pass are taken in one read), 11 bits a pass in long lists (a span
  /// of ten years in seconds, and the run, take three passes) and 8 in short ones (whose counts
  /// would cost more than their keys). It then gathers the entries in that order into `scratch`,
  /// whose buffer and `entries`' trade places, and puts each group of equal keys in item and
  /// occurrence order. Should the run, the offset and the place not fit in 64 bits together (30
  /// million instances over ten thousand years), the offset's lowest bits are left out of the key
  /// and the groups are of equal keys instead.
  @discardableResult
  package static func sort(_ entries: inout [InstanceEntry], scratch: inout SortScratch) -> [Int] {
    var starts = [Int](repeating: 0, count: runs + 1)
    for entry in entries { starts[Int(entry.run) + 1] += 1 }
    for index in 0..<runs { starts[index + 1] += starts[index] }
    let count = entries.count
    guard count > 1 else { return starts }
    if scratch.entries.count < count {
      // As much room as the list's buffer has: the two trade places, and a buffer is reused for
      // the next list only when it has as much room as a new one would be given.
      if scratch.entries.capacity < count {
        HugePages.reserve(&scratch.entries, capacity: max(count, entries.capacity))
      }
      scratch.entries += repeatElement(entries[0], count: count - scratch.entries.count)
    }
    if scratch.keys.count < 2 * count { scratch.keys = Array(repeating: 0, count: 2 * count) }
    var (low, high) = (Int64.max, Int64.min)
    for entry in entries { (low, high) = (min(low, entry.start), max(high, entry.start)) }
    let span = UInt64(bitPattern: high &- low)
    let indexBits = UInt64.bitWidth - UInt64(count - 1).leadingZeroBitCount
    let dropped = max(0, UInt64.bitWidth - span.leadingZeroBitCount + runBits + indexBits - UInt64.bitWidth)
    let offsetBits = UInt64.bitWidth - (span >> dropped).leadingZeroBitCount
    /// The key of an entry, without its place: equal for entries that only its place orders.
    func key(_ entry: InstanceEntry) -> UInt64 {
      UInt64(entry.run) << offsetBits | UInt64(bitPattern: entry.start &- low) >> dropped
    }
    entries.withUnsafeMutableBufferPointer { entries in
      scratch.entries.withUnsafeMutableBufferPointer { sorted in
        scratch.keys.withUnsafeMutableBufferPointer { keys in
          var (source, target) = (keys.baseAddress!, keys.baseAddress! + count)
          for index in 0..<count { source[index] = key(entries[index]) << indexBits | UInt64(index) }
          let keyBits = runBits + offsetBits
          let bits = count >= 1 << 14 ? 11 : 8
          let mask = (UInt64(1) << bits) - 1
          let passes = (keyBits + bits - 1) / bits
          var counts = [Int](repeating: 0, count: passes << bits)
          counts.withUnsafeMutableBufferPointer { counts in
            for index in 0..<count {
              let key = source[index] >> indexBits
              for pass in 0..<passes { counts[pass << bits | Int(key >> (pass * bits) & mask)] += 1 }
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
            if index + ahead < count { kalends_prefetch(entries.baseAddress! + Int(source[index + ahead] & indexMask)) }
            sorted[index] = entries[Int(source[index] & indexMask)]
          }
        }
      }
    }
    // The sorted entries are the list from now on; its old buffer is the next sort's scratch.
    let unsorted = scratch.entries.count - count
    if unsorted > 0 { scratch.entries.removeLast(unsorted) }
    swap(&entries, &scratch.entries)
    entries.withUnsafeMutableBufferPointer { orderEqualKeys($0, key) }
    return starts
  }

  /// Puts each group of entries with equal `key` in `run` (sorted by it) in key order.
  private static func orderEqualKeys(
    _ run: UnsafeMutableBufferPointer<InstanceEntry>, _ key: (InstanceEntry) -> UInt64
  ) {
    var first = 0
    while first < run.count {
      var next = first + 1
      let value = key(run[first])
      while next < run.count && key(run[next]) == value { next += 1 }
      run.sortGroup(first..<next, by: <)
      first = next
    }
  }
}
