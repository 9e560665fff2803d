extension RemoteHTTP {
  /// The most redirects ``sendFollowingRedirects(_:_:headers:body:limit:timeout:)`` follows.
  public static let maximumRedirects = 5

  /// Sends one request as ``send(_:_:headers:body:limit:timeout:)`` does, and again to where a
  /// redirect (301, 302, 303, 307, 308 with a `Location`) points, at most ``maximumRedirects``
  /// times and never from `https` to `http`; returns the first answer that is not a redirect and
  /// the address that gave it.
  public static func sendFollowingRedirects(
    _ method: String, _ url: RemoteURL, headers: [(String, String)] = [], body: [UInt8]? = nil, limit: Int,
    timeout: Int = 30
  ) async throws(RemoteError) -> (RemoteResponse, RemoteURL) {
    var url = url
    for _ in 0...maximumRedirects {
      let answer = try await send(method, url, headers: headers, body: body, limit: limit, timeout: timeout)
      guard [301, 302, 303, 307, 308].contains(answer.status) else { return (answer, url) }
      guard let location = answer.header("Location"), let next = url.resolving(location) else {
        throw .redirect("\(answer.status) without a usable Location")
      }
      guard next.isSecure || !url.isSecure else { throw .redirect("from https to \(next)") }
      url = next
    }
    throw .redirect("more than \(maximumRedirects) redirects")
  }
}
