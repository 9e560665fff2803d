/// Whether a replay goes on to the next record.
public enum ReplayDecision: Sendable, Hashable {
  /// Visit the next record.
  case `continue`
  /// End the replay here.
  case stop
}
