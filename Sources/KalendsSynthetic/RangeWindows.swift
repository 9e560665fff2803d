public import Kalends

/// The windows a range benchmark queries: a week or a month, in one calendar or all of them, at
/// pseudo-random positions over a span of time, the same for every implementation and every run.
///
/// With the default span and calendar count these are the windows of the benchmark suite over
/// ``SyntheticCalendar`` (its ten years, 2020–2029, and its 20 calendars); `kalends bench range`
/// draws them over a user's own store and calendars.
public struct RangeWindows: Sendable {
  /// How long a window is.
  public enum Length: String, Sendable, CaseIterable {
    case week, month

    /// Seconds: 7 or 30 days.
    public var seconds: Int64 { self == .week ? 7 * 86_400 : 30 * 86_400 }
  }

  /// Which calendars a window covers.
  public enum Scope: String, Sendable, CaseIterable {
    case oneCalendar = "one calendar"
    case allCalendars = "all calendars"
  }

  /// One query: `[start, end)` in UTC seconds, and the calendar's index (`nil` for all calendars).
  public struct Window: Sendable {
    public let start: Int64
    public let end: Int64
    public let calendar: Int?
  }

  /// 2020-01-01T00:00:00Z, where the synthetic calendar's data begins.
  public static let firstSecond: Int64 = 1_577_836_800
  /// 2030-01-01T00:00:00Z, where the synthetic calendar's data ends.
  public static let lastSecond: Int64 = 1_893_456_000

  public let length: Length
  public let scope: Scope
  /// The windows, in the order the benchmarks take them (cycling).
  public let windows: [Window]

  /// `count` windows from `seed`, each starting on a whole minute of `span` (UTC seconds) and ending
  /// by its upper bound, in one of `calendarCount` calendars for ``Scope/oneCalendar``.
  ///
  /// - Precondition: `span` is longer than `length`, and `calendarCount` is positive.
  public init(
    _ length: Length, _ scope: Scope, count: Int = 4_096, seed: UInt64 = 7,
    span: Range<Int64> = firstSecond..<lastSecond, calendarCount: Int = SyntheticCalendar.calendarCount
  ) {
    precondition(span.count > length.seconds + 60 && calendarCount > 0, "the span must hold a window")
    self.length = length
    self.scope = scope
    var state = seed &+ (length == .week ? 0 : 1_000) &+ (scope == .oneCalendar ? 0 : 2_000)
    func next() -> UInt64 {
      state &+= 0x9E37_79B9_7F4A_7C15
      var z = state
      z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
      z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
      return z ^ (z >> 31)
    }
    let minutes = UInt64((span.upperBound - span.lowerBound - length.seconds) / 60)
    windows = (0..<count).map { _ in
      let start = span.lowerBound + Int64(next() % minutes) * 60
      let calendar = scope == .oneCalendar ? Int(next() % UInt64(calendarCount)) : nil
      return Window(start: start, end: start + length.seconds, calendar: calendar)
    }
  }

  /// The benchmark name's part: `week, one calendar`.
  public var name: String { "\(length.rawValue), \(scope.rawValue)" }

  /// Every combination, with the same count, seed, span and calendar count.
  public static func all(
    count: Int = 4_096, seed: UInt64 = 7, span: Range<Int64> = firstSecond..<lastSecond,
    calendarCount: Int = SyntheticCalendar.calendarCount
  ) -> [RangeWindows] {
    Length.allCases.flatMap { length in
      Scope.allCases.map {
        RangeWindows(length, $0, count: count, seed: seed, span: span, calendarCount: calendarCount)
      }
    }
  }

  /// The Kalends predicate of `window` over the calendars `calendars` (indexed by the window's
  /// calendar).
  public static func predicate(_ window: Window, _ calendars: [ObjectID]) -> EventPredicate {
    EventPredicate(start: window.start, end: window.end, calendars: window.calendar.map { [calendars[$0]] } ?? [])
  }
}
