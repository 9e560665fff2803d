/// Merges the runs a range query reads (one per calendar, clock and duration class, each sorted by
/// start but for the rare wall-clock instance around a daylight-saving change; or one per calendar,
/// sorted) into the order of ``EventInstance/precedes(_:_:)``, without sorting the whole: the
/// smallest runs are merged first, so the biggest is moved once.
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

  private static func isSorted(_ run: ArraySlice<EventInstance>) -> Bool {
    var index = run.startIndex + 1
    while index < run.endIndex {
      if EventInstance.precedes(run[index], run[index - 1]) { return false }
      index += 1
    }
    return true
  }

  private static func merge(_ a: ArraySlice<EventInstance>, _ b: ArraySlice<EventInstance>) -> [EventInstance] {
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
