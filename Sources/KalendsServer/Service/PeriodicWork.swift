import Logging
import ServiceLifecycle

/// Work `kalends serve` does when it starts and then every `interval`, until the server shuts
/// down: applying the retention policy, bringing refusal and request counts of ended minutes into
/// the log. A failure is logged and the work is tried again at the next interval.
struct PeriodicWork: ServiceLifecycle.Service {
  let interval: Duration
  let logger: Logger
  /// What failing means, for the log line.
  let failure: String
  let work: @Sendable () async throws -> Void

  func run() async throws {
    try? await cancelWhenGracefulShutdown {
      while !Task.isCancelled {
        do {
          try await work()
        } catch {
          logger.error("\(failure): \(error)")
        }
        try await Task.sleep(for: interval)
      }
    }
  }
}
