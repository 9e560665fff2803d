/// A day of the week, as in RFC 5545 (`MO` … `SU`).
public enum Weekday: Int, CaseIterable, Hashable, Sendable, Comparable, CustomStringConvertible {
  case monday = 0
  case tuesday
  case wednesday
  case thursday
  case friday
  case saturday
  case sunday

  /// The two-letter RFC 5545 code: `MO`, `TU`, `WE`, `TH`, `FR`, `SA`, `SU`.
  public var description: String { Self.codes[rawValue] }

  /// The weekday named by a two-letter RFC 5545 code (case-insensitive), or nil.
  public init?(code: some StringProtocol) {
    guard let index = Self.codes.firstIndex(of: code.uppercased()) else { return nil }
    self.init(rawValue: index)
  }

  public static func < (lhs: Weekday, rhs: Weekday) -> Bool { lhs.rawValue < rhs.rawValue }

  private static let codes = ["MO", "TU", "WE", "TH", "FR", "SA", "SU"]
}
