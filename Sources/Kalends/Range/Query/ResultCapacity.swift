/// Sizes a range query's result once, from how many instances the first part of the window held:
/// grown by doubling, a week of a busy calendar is allocated and copied ten times, and the large
/// buffers freed at the end of each query make the allocator return memory to the system and
/// fault it in again on the next one (perf: a quarter of a one-week query).
///
/// The sample is a whole number of days (one in eight of the window, at least one), so that the
/// daily rhythm of a calendar does not bias the estimate; windows shorter than two days sample half
/// of themselves. The estimate gets a quarter more room; if it still falls short, the result grows
/// as usual.
struct ResultCapacity {
  /// The start (on the run's clock) at which to estimate; `Int64.max` once done.
  private(set) var checkpoint: Int64
  private let from: Int64
  private let length: Int64
  /// Where this calendar's instances begin in the result.
  private let calendarStart: Int
  /// How many calendars the query reads after this one (assumed alike).
  private let calendarsAfter: Int

  /// Nothing to estimate.
  static let none = ResultCapacity(checkpoint: .max, from: 0, length: 1, calendarStart: 0, calendarsAfter: 0)

  private init(checkpoint: Int64, from: Int64, length: Int64, calendarStart: Int, calendarsAfter: Int) {
    self.checkpoint = checkpoint
    self.from = from
    self.length = length
    self.calendarStart = calendarStart
    self.calendarsAfter = calendarsAfter
  }

  /// An estimate for the window `[from, to)` of one calendar whose instances start at
  /// `calendarStart` in the result, followed by `calendarsAfter` more.
  init(from: Int64, to: Int64, calendarStart: Int, calendarsAfter: Int) {
    let length = max(1, Self.distance(from, to))
    let day: Int64 = 86_400
    let sample = length >= 2 * day ? max(day, length / 8 / day * day) : max(1, length / 2)
    self.init(
      checkpoint: from.saturatingAdd(sample), from: from, length: length, calendarStart: calendarStart,
      calendarsAfter: calendarsAfter)
  }

  /// Reserves room in `results` for the whole query, estimated when the scan reached `start`.
  mutating func reserve(_ results: inout [EventInstance], reaching start: Int64) {
    checkpoint = .max
    let elapsed = max(1, Self.distance(from, start))
    let sampled = Int64(results.count - calendarStart)
    let perCalendar = sampled.multipliedReportingOverflow(by: length)
    guard !perCalendar.overflow else { return }
    let calendar = Int(perCalendar.partialValue / elapsed)
    let (total, overflow) = calendar.multipliedReportingOverflow(by: 1 + calendarsAfter)
    guard !overflow, total < Int.max / 2 else { return }
    let wanted = calendarStart + total + total / 4
    if wanted > results.capacity { results.reserveCapacity(wanted) }
  }

  /// `to - from`, `Int64.max` when that overflows.
  private static func distance(_ from: Int64, _ to: Int64) -> Int64 {
    let (difference, overflow) = to.subtractingReportingOverflow(from)
    return overflow ? .max : difference
  }
}
