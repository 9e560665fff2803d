public import Kalends

/// The windows the range benchmarks query: a week or a month, in one calendar or all of them, at
/// pseudo-random positions over the synthetic calendar's ten years (2020–2029), the same for every
/// implementation.
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

  /// 2020-01-01T00:00:00Z.
  public static let firstSecond: Int64 = 1_577_836_800
  /// 2030-01-01T00:00:00Z.
  public static let lastSecond: Int64 = 1_893_456_000

  public let length: Length
  public let scope: Scope
  /// The windows, in the order the benchmarks take them (cycling).
  public let windows: [Window]

  /// `count` windows from `seed`, starting on whole minutes and ending by 2030.
  public init(_ length: Length, _ scope: Scope, count: Int = 4_096, seed: UInt64 = 7) {
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
    let minutes = UInt64((Self.lastSecond - Self.firstSecond - length.seconds) / 60)
    windows = (0..<count).map { _ in
      let start = Self.firstSecond + Int64(next() % minutes) * 60
      let calendar = scope == .oneCalendar ? Int(next() % UInt64(SyntheticCalendar.calendarCount)) : nil
      return Window(start: start, end: start + length.seconds, calendar: calendar)
    }
  }

  /// The benchmark name's part: `week, one calendar`.
  public var name: String { "\(length.rawValue), \(scope.rawValue)" }

  /// Every combination.
  public static func all() -> [RangeWindows] {
    Length.allCases.flatMap { length in Scope.allCases.map { RangeWindows(length, $0) } }
  }

  /// The Kalends predicate of `window` over the synthetic calendars `calendars`.
  public static func predicate(_ window: Window, _ calendars: [ObjectID]) -> EventPredicate {
    EventPredicate(start: window.start, end: window.end, calendars: window.calendar.map { [calendars[$0]] } ?? [])
  }
}
