import Kalends
import Logging
import ServiceLifecycle

/// Applies the person's retention policy (`EventStore.applyRetention(now:)`) when the server
/// starts and then every `interval`, until the server shuts down: removed items lose their content
/// on time while the server owns the store.
struct RetentionSweeper: ServiceLifecycle.Service {
  let server: StoreServer
  let interval: Duration
  let logger: Logger

  func run() async throws {
    try? await cancelWhenGracefulShutdown {
      while !Task.isCancelled {
        do {
          let owner = server.owner
          let erased = try await server.withStore { try owner.applyRetention() }
          for erasure in erased {
            logger.info(
              "retention erased \(erasure.item)",
              metadata: ["records": "\(erasure.erasedPositions.count)", "position": "\(erasure.record!)"])
          }
        } catch {
          logger.error("retention could not be applied: \(error)")
        }
        try await Task.sleep(for: interval)
      }
    }
  }
}
