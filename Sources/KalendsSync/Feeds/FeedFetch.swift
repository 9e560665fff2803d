import Foundation

/// One conditional fetch of a calendar feed.
public enum FeedFetch: Sendable {
  /// The feed's bytes, with the validators to send next time.
  case fetched([UInt8], entityTag: String?, lastModified: String?)
  /// The feed has not changed since the validators sent (304).
  case notModified
  /// The server says the feed is not there (404, 410).
  case gone(status: Int)
  /// Another status.
  case failed(status: Int)

  /// Fetches `address`, sending `entityTag` and `lastModified` as `If-None-Match` and
  /// `If-Modified-Since`, following redirects as `RemoteHTTP.sendFollowingRedirects` does. A
  /// `file://` address is read from the file (a missing one is ``gone(status:)`` 404).
  public static func fetch(
    _ address: String, entityTag: String? = nil, lastModified: String? = nil, limit: Int, timeout: Int = 30
  ) async throws(RemoteError) -> FeedFetch {
    if address.lowercased().hasPrefix("file://") { return try local(address, limit: limit) }
    guard let url = RemoteURL(address) else { throw .invalidAddress(address) }
    var headers = [("Accept", "text/calendar, */*;q=0.5")]
    if let entityTag { headers.append(("If-None-Match", entityTag)) }
    if let lastModified { headers.append(("If-Modified-Since", lastModified)) }
    let (answer, _) = try await RemoteHTTP.sendFollowingRedirects(
      "GET", url, headers: headers, limit: limit, timeout: timeout)
    switch answer.status {
    case 200...299:
      return .fetched(answer.body, entityTag: answer.header("ETag"), lastModified: answer.header("Last-Modified"))
    case 304: return .notModified
    case 404, 410: return .gone(status: answer.status)
    default: return .failed(status: answer.status)
    }
  }

  /// The feed in the file of a `file:///PATH` address, at most `limit` bytes.
  static func local(_ address: String, limit: Int) throws(RemoteError) -> FeedFetch {
    let path = String(address.dropFirst("file://".count))
    guard path.hasPrefix("/") else { throw .invalidAddress(address) }
    guard let file = FileHandle(forReadingAtPath: path) else { return .gone(status: 404) }
    defer { try? file.close() }
    let bytes = [UInt8]((try? file.read(upToCount: limit + 1)) ?? Data())
    guard bytes.count <= limit else { throw .tooLarge(limit: limit) }
    return .fetched(bytes, entityTag: nil, lastModified: nil)
  }
}
