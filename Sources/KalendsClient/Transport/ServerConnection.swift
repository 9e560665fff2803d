import Foundation
import Synchronization

/// The calls of one app's stores (``EventStore``, ``ContactStore``) to the store server: one kept
/// connection, the read position the change stream starts after, and the server's problem
/// details as errors.
final class ServerConnection: Sendable {
  private let pool: ConnectionPool
  /// The token of the latest read (`Kalends-Position`).
  private let readToken = Mutex<ChangeToken?>(nil)
  /// Where the server is.
  let endpoint: Endpoint

  init(endpoint: Endpoint) {
    self.endpoint = endpoint
    pool = ConnectionPool(endpoint: endpoint)
  }

  /// The body of `GET /v1/authorization/SERVICE` and of an access request.
  struct Status: Decodable {
    let status: AuthorizationStatus
  }

  /// The token of the latest read through this connection.
  var lastReadToken: ChangeToken? { readToken.withLock { $0 } }

  /// `method target`, its 2xx answer decoded as `T`; the server's problem otherwise.
  func call<T: Decodable>(
    _ method: String, _ target: String, headers: [(String, String)] = [], body: [UInt8]? = nil
  ) async throws -> T {
    let response = try await send(method, target, headers: headers, body: body)
    guard (200..<300).contains(response.status) else { throw Self.problem(response) }
    return try Self.decode(T.self, response)
  }

  /// `method target`, whatever its status.
  func send(
    _ method: String, _ target: String, headers: [(String, String)] = [], body: [UInt8]? = nil
  ) async throws -> HTTPResponse {
    let response = try await pool.send(HTTPRequest(method: method, target: target, headers: headers, body: body))
    if let token = response.header("Kalends-Position").flatMap(ChangeToken.init) {
      readToken.withLock { $0 = token }
    }
    return response
  }

  /// The object at `target` as it is now — `current` itself when unchanged since `version` (304),
  /// `nil` when it is gone or no longer the app's (404) — for the stores' `refresh(_:)`.
  func refreshed<T: Decodable>(_ current: T, at target: String, version: String?) async throws -> T? {
    let response = try await send("GET", target, headers: version.map { [("If-None-Match", "\"\($0)\"")] } ?? [])
    switch response.status {
    case 304: return current
    case 404: return nil
    case 200: return try Self.decode(T.self, response)
    default: throw Self.problem(response)
    }
  }

  /// Removes the object at `target`, provided it is still at `version` (else status 412).
  func remove(_ target: String, version: String?) async throws {
    let response = try await send("DELETE", target, headers: Self.ifMatch(version))
    guard response.status == 204 else { throw Self.problem(response) }
  }

  /// `If-Match` naming `version`, the version the app fetched (none for an object never fetched).
  static func ifMatch(_ version: String?) -> [(String, String)] {
    version.map { [("If-Match", "\"\($0)\"")] } ?? []
  }

  /// The body of `response` as `T`.
  static func decode<T: Decodable>(_ type: T.Type, _ response: HTTPResponse) throws -> T {
    do {
      return try JSONDecoder().decode(T.self, from: Data(response.body))
    } catch {
      throw KalendsClientError.malformedResponse("\(T.self): \(error)")
    }
  }

  /// The error a non-success response states.
  static func problem(_ response: HTTPResponse) -> KalendsClientError {
    struct Problem: Decodable {
      let title: String
      let detail: String
    }
    let problem = try? JSONDecoder().decode(Problem.self, from: Data(response.body))
    let detail = problem?.detail ?? String(decoding: response.body.prefix(200), as: UTF8.self)
    if response.status == 401, problem?.title == "session ended" || problem?.title == "token revoked" {
      return .sessionEnded(detail)
    }
    return .problem(status: response.status, title: problem?.title ?? "HTTP \(response.status)", detail: detail)
  }

}
