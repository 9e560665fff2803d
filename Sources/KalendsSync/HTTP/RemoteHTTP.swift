/// Requests to remote servers (feeds, accounts), each over a connection of its own
/// (`RemoteConnection`, inside the package, for several over one): HTTP/1.1,
/// TLS for `https` (the system's OpenSSL, trusting the system's roots), a bound on the
/// answer's size and on the time it takes, no redirect followed (callers decide).
public enum RemoteHTTP {
  /// Sends one request to `url` and returns the whole answer.
  ///
  /// - Parameters:
  ///   - method: the request's method (`GET`, `PROPFIND`, `REPORT`, `PUT`, …).
  ///   - url: where to send it.
  ///   - headers: header fields beside `Host`, `User-Agent`, `Connection` and `Content-Length`.
  ///   - body: the request's body, if any.
  ///   - limit: the most bytes of body read; a larger answer is ``RemoteError/tooLarge(limit:)``.
  ///   - timeout: seconds for the whole exchange, connection included.
  public static func send(
    _ method: String, _ url: RemoteURL, headers: [(String, String)] = [], body: [UInt8]? = nil, limit: Int,
    timeout: Int = 30
  ) async throws(RemoteError) -> RemoteResponse {
    let started = ContinuousClock.now
    do {
      return try await withConnection(to: url, connectTimeout: max(1, min(timeout, 15))) { connection in
        // What the connection took is taken from the exchange's time: `timeout` bounds both.
        let left = Int((started + .seconds(timeout) - ContinuousClock.now).components.seconds)
        return try await connection.send(
          method, target: url.target, headers: headers, body: body, limit: limit, timeout: max(1, left),
          closing: true)
      }
    } catch let error as RemoteError {
      throw error
    } catch {
      throw .unreachable("\(url.hostHeader): \(error)")
    }
  }
}
