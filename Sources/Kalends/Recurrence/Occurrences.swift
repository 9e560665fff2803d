/// The occurrences of a `RecurrenceSet` overlapping a window: a lazy sequence, ascending by start.
public struct Occurrences: Sequence, Sendable {
  let set: RecurrenceSet
  let from: Int64
  let to: Int64
  let viewerZone: ZoneRules?

  public func makeIterator() -> Iterator { Iterator(self) }

  /// Merges DTSTART, the rules and the RDATEs in wall-clock order, drops EXDATEs and duplicates,
  /// resolves each wall-clock time to an instant, and reorders the few instants a daylight-saving gap
  /// puts out of wall-clock order.
  public struct Iterator: IteratorProtocol {
    private let from: Int64
    private let to: Int64
    private let duration: Int64
    private let resolver: ZoneRules
    private var resolution = ZoneRules.ResolutionCache()
    /// Whether the end is the start plus the duration (zoned timed series) rather than the wall-clock
    /// end resolved on its own (floating and all-day series).
    private let elapsedEnd: Bool
    /// The largest `wall clock − instant` of the resolving zone: an occurrence at wall clock `w` starts
    /// at or after `w − maximumOffset`.
    private let maximumOffset: Int64

    private var pendingStart: Int64?
    private var expanders: [RuleExpander]
    private var heads: [Int64?]
    private let recurrenceDates: [Int64]
    private var recurrenceIndex: Int
    private let exceptionDates: [Int64]
    private var exceptionIndex: Int
    private var last: Int64 = .min
    /// Resolved occurrences not yet returned, ascending by (start, local): `buffer[bufferIndex..<bufferEnd]`.
    /// Slots are overwritten in place rather than inserted and removed, which cost more than the
    /// rest of an occurrence.
    private var buffer: [Occurrence] = []
    private var bufferIndex = 0
    private var bufferEnd = 0
    /// Whether the occurrences after DTSTART come from one rule alone whose wall-clock times are
    /// whole days apart (one time of day), in a zone whose offsets span less than a day: their
    /// instants are then ascending too, and each is returned as soon as it is resolved.
    private let direct: Bool

    init(_ occurrences: Occurrences) {
      let set = occurrences.set
      from = occurrences.from
      to = occurrences.to
      duration = set.duration
      resolver = set.zone ?? occurrences.viewerZone ?? .utc
      elapsedEnd = set.zone != nil
      let bounds = resolver.offsetBounds
      maximumOffset = bounds.maximum
      // An occurrence at wall clock `w` ends by `w + duration − minimum offset`; earlier ones cannot overlap.
      let lowest = from.saturatingAdd(-duration).saturatingAdd(bounds.minimum - 86_400)
      let start = set.start.wallClockSeconds
      pendingStart = start >= lowest ? start : nil
      let end: (RecurrenceRule) -> ExpansionPlan.End = { rule in
        if let count = rule.count { return .count(count) }
        switch rule.until {
        case nil: return .never
        case .date(let date): return .localUntil(date.wallClockSeconds + 86_399)
        case .floating(let time):
          return .localUntil(set.isAllDay ? time.dayNumber * 86_400 + 86_399 : time.wallClockSeconds)
        case .utc(let seconds):
          if let zone = set.zone { return .utcUntil(seconds, zone) }
          let time = LocalDateTime(unchecked: seconds)
          return .localUntil(set.isAllDay ? time.dayNumber * 86_400 + 86_399 : seconds)
        }
      }
      let last = occurrences.to.saturatingAdd(bounds.maximum + 86_400)
      let plans = set.rules.map { rule in ExpansionPlan(rule: rule, start: set.start, end: end(rule)) }
      expanders = plans.map { plan in RuleExpander(plan: plan, skippingBefore: lowest, endingAfter: last) }
      direct =
        plans.count == 1 && plans[0].times.count == 1 && set.recurrenceDates.isEmpty && set.exceptionDates.isEmpty
        && bounds.maximum - bounds.minimum < 86_400
      heads = []
      for index in expanders.indices { heads.append(expanders[index].next()) }
      recurrenceDates = set.recurrenceDates.map(\.wallClockSeconds)
      recurrenceIndex = Self.firstIndex(in: recurrenceDates, notBefore: lowest)
      exceptionDates = set.exceptionDates.map(\.wallClockSeconds)
      exceptionIndex = Self.firstIndex(in: exceptionDates, notBefore: lowest)
    }

    public mutating func next() -> Occurrence? {
      if direct, pendingStart == nil, bufferIndex == bufferEnd { return nextDirect() }
      while true {
        let upcoming = peek()
        // No later wall-clock time can start before `frontier`, so buffered occurrences up to it are final.
        let frontier = upcoming.map { $0 - maximumOffset } ?? .max
        if bufferIndex < bufferEnd, buffer[bufferIndex].start <= frontier {
          let occurrence = buffer[bufferIndex]
          bufferIndex += 1
          if bufferIndex == bufferEnd { (bufferIndex, bufferEnd) = (0, 0) }
          return occurrence
        }
        guard let local = upcoming, frontier < to else { return nil }
        consume(local)
        if local == last { continue }
        last = local
        while exceptionIndex < exceptionDates.count, exceptionDates[exceptionIndex] < local { exceptionIndex += 1 }
        if exceptionIndex < exceptionDates.count, exceptionDates[exceptionIndex] == local { continue }
        let start = resolver.resolve(wallClock: local, cache: &resolution)
        let end = elapsedEnd ? start + duration : resolver.resolve(wallClock: local + duration, cache: &resolution)
        guard start < to, end > from || (end == start && start >= from) else { continue }
        let occurrence = Occurrence(local: LocalDateTime(unchecked: local), start: start, end: end)
        if bufferEnd == buffer.count { buffer.append(occurrence) }
        var index = bufferEnd
        while index > bufferIndex, buffer[index - 1].start > start {
          buffer[index] = buffer[index - 1]
          index -= 1
        }
        buffer[index] = occurrence
        bufferEnd += 1
      }
    }

    /// The next occurrence of a `direct` iterator once DTSTART is behind it and nothing is buffered:
    /// what `next()` returns then, without merging sources or buffering.
    private mutating func nextDirect() -> Occurrence? {
      while let local = heads[0] {
        guard local - maximumOffset < to else { return nil }
        heads[0] = expanders[0].next()
        last = local
        let start = resolver.resolve(wallClock: local, cache: &resolution)
        let end = elapsedEnd ? start + duration : resolver.resolve(wallClock: local + duration, cache: &resolution)
        guard start < to, end > from || (end == start && start >= from) else { continue }
        return Occurrence(local: LocalDateTime(unchecked: local), start: start, end: end)
      }
      return nil
    }

    /// The smallest next wall-clock time among DTSTART, the rules and the RDATEs.
    private func peek() -> Int64? {
      var lowest = pendingStart
      for case let head? in heads where lowest == nil || head < lowest! { lowest = head }
      if recurrenceIndex < recurrenceDates.count, lowest == nil || recurrenceDates[recurrenceIndex] < lowest! {
        lowest = recurrenceDates[recurrenceIndex]
      }
      return lowest
    }

    /// Moves every source whose next wall-clock time is `local` past it.
    private mutating func consume(_ local: Int64) {
      if pendingStart == local { pendingStart = nil }
      for index in heads.indices where heads[index] == local { heads[index] = expanders[index].next() }
      if recurrenceIndex < recurrenceDates.count, recurrenceDates[recurrenceIndex] == local { recurrenceIndex += 1 }
    }

    private static func firstIndex(in sorted: [Int64], notBefore value: Int64) -> Int {
      var (low, high) = (0, sorted.count)
      while low < high {
        let middle = (low + high) / 2
        if sorted[middle] < value { low = middle + 1 } else { high = middle }
      }
      return low
    }
  }
}
