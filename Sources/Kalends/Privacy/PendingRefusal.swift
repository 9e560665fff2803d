/// One app's refused calls of one service in one minute that are counted but not yet in the log:
/// the first refusal of a minute is appended at once, later ones are counted durably and appended
/// as one record by the first write after the minute ends (``PrivacyAudit/pendingRefusals(client:)``).
public struct PendingRefusal: Hashable, Sendable {
  /// The app refused.
  public let client: String
  /// The service it was refused; `nil` for what only the owner may do (`ownerActionRefused`).
  public let service: Service?
  /// The minute of the refusals (Unix time in minutes, UTC), as a refusal record's field 6.
  public let minute: Int64
  /// Its status at the last refusal counted; `nil` for an owner-only action.
  public let status: AuthorizationStatus?
  /// What it attempted last.
  public let operation: String
  /// How many refused calls are counted and not yet in the log.
  public let count: Int
}
