/// Puts what a range query reads in the order of ``EventInstance/precedes(_:_:)``: one calendar's
/// runs (one per clock and duration class, each sorted by start but for the rare wall-clock
/// instance around a daylight-saving change) merged, the smallest first so that the biggest is
/// moved once; the instances of many calendars, which interleave, by a radix sort (``ordered(_:)``).
enum InstanceRuns {
  /// `instances` in order, given where each of its runs ends (ascending; the last is its count).
  /// With `sorted`, the runs are known to be in order already and are not checked.
  static func merged(_ instances: [EventInstance], runEnds: [Int], sorted: Bool = false) -> [EventInstance] {
    var runs: [ArraySlice<EventInstance>] = []
    var start = 0
    var inPlace = true
    for end in runEnds where end > start {
      var run = instances[start..<end]
      if !sorted, !isSorted(run) {
        run = ArraySlice(run.sorted(by: EventInstance.precedes))
        inPlace = false
      }
      runs.append(run)
      start = end
    }
    if inPlace, runs.count <= 1 { return instances }
    while runs.count > 1 {
      runs.sort { $0.count > $1.count }
      let first = runs.removeLast()
      let second = runs.removeLast()
      runs.append(ArraySlice(merge(first, second)))
    }
    return runs.first.map(Array.init) ?? []
  }

  /// `instances`, in any order, in the order of ``EventInstance/precedes(_:_:)``: by the radix sort
  /// below, or by comparisons where that does not apply.
  static func ordered(_ instances: [EventInstance]) -> [EventInstance] {
    radixSorted(instances) ?? instances.sorted(by: EventInstance.precedes)
  }

  /// `instances` put in order by a radix sort, or nil when their starts span 2³³ seconds or more
  /// or there are 2²⁴ instances or more.
  ///
  /// Merging the sorted runs of many calendars compares every instance with the heads of other
  /// runs, and for a week of 20 calendars, whose runs interleave at random, those comparisons
  /// mispredict about every other branch: that was most of the query. Here each instance's position, its start (less the smallest) and as
  /// many leading bits of its identifier as fit are packed into one word, the words are sorted
  /// with a least-significant-digit radix sort — no comparison at all — and the instances gathered
  /// in that order. Instances whose start and identifier prefix are equal (rare: the prefix is at
  /// least 7 random bits) are then put in order by one insertion pass, which on an array already
  /// in order costs a comparison per instance.
  private static func radixSorted(_ instances: [EventInstance]) -> [EventInstance]? {
    let count = instances.count
    guard count > 1, count < 1 << positionBits else { return nil }
    return instances.withUnsafeBufferPointer { source -> [EventInstance]? in
      var lowest = Int64.max
      var highest = Int64.min
      for instance in source {
        lowest = min(lowest, instance.start)
        highest = max(highest, instance.start)
      }
      let (span, overflow) = highest.subtractingReportingOverflow(lowest)
      guard !overflow, span < 1 << 33 else { return nil }
      // The start takes the bits it needs above the position; the identifier's prefix the rest.
      let startBits = 64 - UInt64(span).leadingZeroBitCount
      let prefixBits = UInt64(64 - positionBits - startBits)
      let digits = (64 - positionBits + digitBits - 1) / digitBits
      var keys = [UInt64](unsafeUninitializedCapacity: count) { keys, written in
        for index in 0..<count {
          let instance = source[index]
          let order = UInt64(instance.start &- lowest) << prefixBits | instance.id.high >> (64 - prefixBits)
          keys[index] = order << UInt64(positionBits) | UInt64(index)
        }
        written = count
      }
      do {
        var spare = [UInt64](repeating: 0, count: count)
        var buckets = [Int](repeating: 0, count: 1 << digitBits)
        keys.withUnsafeMutableBufferPointer { keys in
          spare.withUnsafeMutableBufferPointer { spare in
            buckets.withUnsafeMutableBufferPointer { buckets in
              var (from, to) = (keys, spare)
              for digit in 0..<digits {
                let shift = UInt64(positionBits + digit * digitBits)
                let mask = UInt64(1 << digitBits - 1)
                buckets.update(repeating: 0)
                for key in from { buckets[Int(key >> shift & mask)] += 1 }
                var total = 0
                for bucket in buckets.indices {
                  let size = buckets[bucket]
                  buckets[bucket] = total
                  total += size
                }
                for key in from {
                  let bucket = Int(key >> shift & mask)
                  to[buckets[bucket]] = key
                  buckets[bucket] += 1
                }
                swap(&from, &to)
              }
              if from.baseAddress != keys.baseAddress { _ = keys.update(fromContentsOf: from) }
            }
          }
        }
      }
      let positionMask = UInt64(1 << positionBits - 1)
      var merged = [EventInstance](unsafeUninitializedCapacity: count) { out, written in
        for index in 0..<count { out.initializeElement(at: index, to: source[Int(keys[index] & positionMask)]) }
        written = count
      }
      merged.withUnsafeMutableBufferPointer { merged in
        for index in 1..<count where EventInstance.precedes(merged[index], merged[index - 1]) {
          let moving = merged[index]
          var place = index
          while place > 0, EventInstance.precedes(moving, merged[place - 1]) {
            merged[place] = merged[place - 1]
            place -= 1
          }
          merged[place] = moving
        }
      }
      return merged
    }
  }

  /// The bits of a packed key that hold an instance's position (the rest hold its start).
  private static let positionBits = 24
  /// The bits a radix pass sorts by.
  private static let digitBits = 14

  private static func isSorted(_ run: ArraySlice<EventInstance>) -> Bool {
    var index = run.startIndex + 1
    while index < run.endIndex {
      if EventInstance.precedes(run[index], run[index - 1]) { return false }
      index += 1
    }
    return true
  }

  /// `a` and `b`, each sorted as ``EventInstance/precedes(_:_:)`` sorts, as one such list.
  static func merge(_ a: ArraySlice<EventInstance>, _ b: ArraySlice<EventInstance>) -> [EventInstance] {
    var out: [EventInstance] = []
    out.reserveCapacity(a.count + b.count)
    var (i, j) = (a.startIndex, b.startIndex)
    while i < a.endIndex, j < b.endIndex {
      if EventInstance.precedes(b[j], a[i]) {
        out.append(b[j])
        j += 1
      } else {
        out.append(a[i])
        i += 1
      }
    }
    out.append(contentsOf: a[i...])
    out.append(contentsOf: b[j...])
    return out
  }
}
