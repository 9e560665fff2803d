/// Why a request to a remote server (a feed, an account) got no answer Kalends could use.
public enum RemoteError: Error, Hashable, Sendable, CustomStringConvertible {
  /// The address is not an `http` or `https` one Kalends can reach.
  case invalidAddress(String)
  /// The connection could not be made, or broke before the answer was whole.
  case unreachable(String)
  /// No answer within the time allowed.
  case timedOut(seconds: Int)
  /// The answer's body is larger than allowed; the rest was not read.
  case tooLarge(limit: Int)
  /// The answer is not HTTP/1.1 Kalends can read.
  case malformed(String)
  /// Too many redirects, or one to an address Kalends does not follow.
  case redirect(String)

  public var description: String {
    switch self {
    case .invalidAddress(let reason): "invalid address: \(reason)"
    case .unreachable(let reason): "unreachable: \(reason)"
    case .timedOut(let seconds): "no answer within \(seconds) s"
    case .tooLarge(let limit): "the answer is larger than \(limit) bytes"
    case .malformed(let reason): "malformed answer: \(reason)"
    case .redirect(let reason): "redirect not followed: \(reason)"
    }
  }
}
