/// Why a call to the store server failed.
public enum KalendsClientError: Error, Sendable, Hashable, CustomStringConvertible {
  /// The server refused the call: its RFC 9457 problem details (`status` 401 when the app is not
  /// identified or its session ended, 403 when its access refuses the call, 404, 409, 412, …) and
  /// the exit status the `kalends` command gives for the same failure.
  case problem(status: Int, title: String, detail: String)
  /// No server answers at the endpoint.
  case unreachable(String)
  /// The connection had closed before the request was sent.
  case connectionClosed
  /// The connection closed after the request was sent and before its response arrived: the
  /// request may or may not have taken effect.
  case connectionLost
  /// The server's answer is not what its API describes.
  case malformedResponse(String)
  /// The app's session ended (its access was changed from outside the app, or its token was
  /// revoked): as EventKit's app is then, it must start again.
  case sessionEnded(String)

  public var description: String {
    switch self {
    case .problem(let status, let title, let detail): "\(status) \(title): \(detail)"
    case .unreachable(let reason): "no store server answers: \(reason)"
    case .connectionClosed: "the connection to the store server had closed"
    case .connectionLost: "the connection to the store server closed before it answered"
    case .malformedResponse(let reason): "the store server's answer is malformed: \(reason)"
    case .sessionEnded(let detail): "the session ended: \(detail)"
    }
  }
}
