/// How long removed items keep their content before the store erases it by itself.
///
/// Set by the person (``PrivacySettings/setRetention(removedAfterSeconds:)``, `kalends retention set`),
/// itself a recorded decision (`retentionSet`); applied by ``PrivacySettings/applyRetention(now:)`` —
/// `kalends retention apply`, and the store server hourly — whose erasures are the system's,
/// naming the policy's record.
public struct RetentionPolicy: Hashable, Sendable {
  /// Removed items whose removal is older than this many seconds have their content erased.
  public let removedAfterSeconds: Int64
  /// The `retentionSet` record that set it.
  public let setAt: LogPosition

  /// The longest period accepted: 100 years.
  static let longest: UInt64 = 100 * 366 * 86_400
}
