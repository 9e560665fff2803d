/// A time the person is busy, from ``EventStore/busyPeriods(inCalendars:from:to:)``: what an
/// iCalendar `FREEBUSY` property lists (RFC 5545 §3.8.2.6), in UTC seconds.
public struct BusyPeriod: Sendable, Hashable {
  /// How busy: RFC 5545's `FBTYPE`.
  public enum Kind: String, Sendable, Hashable, CaseIterable {
    /// `BUSY`: an event the person is busy for.
    case busy = "BUSY"
    /// `BUSY-TENTATIVE`: a tentative event, or one whose availability is tentative.
    case tentative = "BUSY-TENTATIVE"
    /// `BUSY-UNAVAILABLE`: time marked unavailable.
    case unavailable = "BUSY-UNAVAILABLE"
  }

  /// The start, inclusive.
  public var start: Int64
  /// The end, exclusive.
  public var end: Int64
  /// How busy.
  public var kind: Kind

  /// A period from `start` to `end` of `kind`.
  public init(start: Int64, end: Int64, kind: Kind) {
    self.start = start
    self.end = end
    self.kind = kind
  }
}
