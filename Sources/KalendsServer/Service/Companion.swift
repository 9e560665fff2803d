package import Kalends

/// Work a store server does beside serving, at start and then every `interval` until it stops, on
/// a thread of its own with the store it serves (a process opens a store once): the fleet's
/// publisher (`kalends serve --fleet-nats`). A failure is logged and the work tried again at the
/// next interval; a line the work returns is logged as information.
package struct Companion: Sendable {
  package let interval: Duration
  /// What failing means, for the log line.
  package let failure: String
  package let work: @Sendable (Store) throws -> String?

  package init(interval: Duration, failure: String, work: @escaping @Sendable (Store) throws -> String?) {
    self.interval = interval
    self.failure = failure
    self.work = work
  }
}
