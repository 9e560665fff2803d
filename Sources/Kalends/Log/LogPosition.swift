/// The place of a record in the log: 1 for the first record, then gap-free.
public struct LogPosition: RawRepresentable, Hashable, Comparable, Sendable, CustomStringConvertible,
  ExpressibleByIntegerLiteral
{
  /// The position as a number.
  public var rawValue: UInt64

  /// Wraps a position number.
  public init(rawValue: UInt64) { self.rawValue = rawValue }

  /// Wraps a position number.
  public init(_ rawValue: UInt64) { self.rawValue = rawValue }

  public init(integerLiteral value: UInt64) { self.rawValue = value }

  /// The position before the first record: the head of an empty log.
  public static let none = LogPosition(0)

  /// The position after this one.
  public var next: LogPosition { LogPosition(rawValue + 1) }

  public static func < (lhs: LogPosition, rhs: LogPosition) -> Bool { lhs.rawValue < rhs.rawValue }

  public var description: String { String(rawValue) }
}
