/// A record whose timestamp cannot be right: earlier than the record before it (Kalends never
/// stamps one so: a writer of another version, a clock set back, or an edit), or later than the
/// verifier's clock by more than ``toleratedFuture`` (a writer's clock set ahead). `verify`
/// reports them without failing, since the chain itself is intact; the audit's instants rest on
/// these timestamps.
public struct TimestampAnomaly: Hashable, Sendable, CustomStringConvertible {
  /// Which way the timestamp is wrong.
  public enum Kind: String, Hashable, Sendable {
    /// Earlier than the timestamp of a record before it.
    case backwards
    /// Later than the verifier's clock by more than ``TimestampAnomaly/toleratedFuture``.
    case future
  }

  /// How far ahead of the verifier's clock a timestamp may be before it is reported: clocks of
  /// machines sharing a store differ by seconds, not minutes.
  public static let toleratedFuture: Int64 = 5 * 60 * 1_000_000

  /// The record.
  public let position: LogPosition
  /// Which way it is wrong.
  public let kind: Kind
  /// Its timestamp.
  public let timestamp: Timestamp
  /// What it was compared with: the previous record's timestamp, or the verifier's clock.
  public let reference: Timestamp

  public var description: String {
    switch kind {
    case .backwards:
      "position \(position): stamped \(timestamp), earlier than a record before it (\(reference))"
    case .future:
      "position \(position): stamped \(timestamp), ahead of this machine's clock (\(reference))"
    }
  }
}
