import Kalends
import Logging
import ServiceLifecycle

/// Brings the refusal tallies of ended minutes into the log every `interval` while the server
/// runs (`Store.flushEndedRefusals()`): a minute's later refusals — which an app can cause at any
/// rate — are stamped and provable within seconds of the minute's end, with the evidence of the
/// refused process, instead of waiting for the next unrelated write.
struct RefusalFlusher: ServiceLifecycle.Service {
  let server: StoreServer
  let interval: Duration
  let logger: Logger

  func run() async throws {
    try? await cancelWhenGracefulShutdown {
      while !Task.isCancelled {
        do {
          let store = server.owner.store
          _ = try await server.withStore { try store.flushEndedRefusals() }
        } catch {
          logger.error("refusal counts could not be written: \(error)")
        }
        try await Task.sleep(for: interval)
      }
    }
  }
}
