/// Whether a replay goes on to the next record.
@_spi(Internals) public enum ReplayDecision: Sendable, Hashable {
  /// Visit the next record.
  case `continue`
  /// End the replay here.
  case stop
}
