import Foundation

/// The client's connection to the store server: one kept open, opened again when the server
/// closed it (its idle timeout, a restart).
actor ConnectionPool {
  let endpoint: Endpoint
  private var connection: HTTPConnection?
  private var lastUse = ContinuousClock.now
  /// Longer idle than this, a request that must not be sent twice opens a new connection rather
  /// than race the server's idle timeout (60 s by default).
  private let freshAfter: Duration = .seconds(20)

  init(endpoint: Endpoint) {
    self.endpoint = endpoint
  }

  /// Sends `request` and returns its response. A request is sent again on a new connection when
  /// the old one had closed before it was sent, and — for GET — when it closed before answering.
  func send(_ request: HTTPRequest) async throws -> HTTPResponse {
    let idempotent = request.method == "GET" || request.method == "HEAD"
    if !idempotent, ContinuousClock.now - lastUse > freshAfter { connection = nil }
    lastUse = ContinuousClock.now
    if let connection {
      do {
        return try await connection.send(request)
      } catch KalendsClientError.connectionClosed {
        self.connection = nil
      } catch KalendsClientError.connectionLost where idempotent {
        self.connection = nil
      }
    }
    let fresh = try await HTTPConnection(to: endpoint)
    connection = fresh
    return try await fresh.send(request)
  }
}
