/// One occurrence of a recurrence set.
public struct Occurrence: Hashable, Sendable, CustomStringConvertible {
  /// The original wall-clock start (the RECURRENCE-ID): the occurrence's identity within its series.
  public let local: LocalDateTime
  /// The start instant, UTC seconds since 1970.
  public let start: Int64
  /// The end instant, UTC seconds since 1970 (equal to `start` for a zero-length occurrence).
  public let end: Int64

  public init(local: LocalDateTime, start: Int64, end: Int64) {
    self.local = local
    self.start = start
    self.end = end
  }

  public var description: String { "\(local) [\(start), \(end))" }
}
