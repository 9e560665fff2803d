package import Kalends

/// Work a store server does beside serving, at start and then every `interval` until it stops,
/// with the store it serves (a process opens a store once): the fleet's publisher (`kalends serve
/// --fleet-nats`) on a thread of its own, the refresh of subscribed calendars as a task that waits
/// on the network. A failure is logged and the work tried again at the next interval; each line
/// the work returns is logged as information.
package struct Companion: Sendable {
  /// How the work runs.
  package enum Work: Sendable {
    /// Blocking work, run on a thread of the server's own.
    case blocking(@Sendable (Store) throws -> String?)
    /// Work that awaits (on the network), run as a task.
    case awaiting(@Sendable (Store) async throws -> [String])
  }

  package let interval: Duration
  /// What failing means, for the log line.
  package let failure: String
  package let work: Work

  package init(interval: Duration, failure: String, work: @escaping @Sendable (Store) throws -> String?) {
    self.interval = interval
    self.failure = failure
    self.work = .blocking(work)
  }

  package init(interval: Duration, failure: String, awaiting work: @escaping @Sendable (Store) async throws -> [String])
  {
    self.interval = interval
    self.failure = failure
    self.work = .awaiting(work)
  }
}
