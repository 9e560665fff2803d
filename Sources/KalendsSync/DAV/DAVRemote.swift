import Foundation
import KalendsFormats

/// A CalDAV or CardDAV server reached as one user: WebDAV requests with Basic authentication
/// over ``RemoteHTTP``, redirects followed (at most five, never from `https` to `http`), and
/// multistatus answers parsed by the XML reader that refuses document type declarations.
struct DAVRemote: Sendable {
  /// `Authorization`'s value, read once from the credentials.
  let authorization: String
  /// Seconds for each request.
  let timeout: Int
  /// The most bytes of an answer.
  let limit: Int

  /// The methods sent again when the connection fails: they change nothing on the server.
  static let safeMethods: Set<String> = ["GET", "HEAD", "PROPFIND", "REPORT", "OPTIONS"]
  /// The pauses before each sending again.
  static let retries: [Duration] = [.milliseconds(200), .seconds(1)]

  /// One response of a multistatus: its resource, the properties found (status 200), and the
  /// response's own status when it has one (`404` for a member `sync-collection` says is gone).
  struct Response: Sendable {
    let href: String
    let properties: [XMLName: XMLElement]
    var status: Int? = nil
  }

  /// Sends `method` with the XML `body` to `url`, following redirects
  /// (`RemoteHTTP.sendFollowingRedirects`); returns the answer and the address that gave it. A
  /// refusal of the user (401, and 403 unless `forbiddenAnswers`) is
  /// ``AccountError/refused(status:url:)``. `headers` are sent too; `contentType` names the body's.
  func send(
    _ method: String, _ url: RemoteURL, depth: Int?, body: String?, headers extra: [(String, String)] = [],
    contentType: String = "application/xml; charset=utf-8", forbiddenAnswers: Bool = false
  ) async throws(AccountError) -> (RemoteResponse, RemoteURL) {
    var headers = [("Authorization", authorization)] + extra
    if let depth { headers.append(("Depth", String(depth))) }
    if body != nil { headers.append(("Content-Type", contentType)) }
    var (answer, at): (RemoteResponse, RemoteURL)
    var attempt = 0
    while true {
      do {
        (answer, at) = try await RemoteHTTP.sendFollowingRedirects(
          method, url, headers: headers, body: body.map { Array($0.utf8) }, limit: limit, timeout: timeout)
        break
      } catch .unreachable where attempt < Self.retries.count && Self.safeMethods.contains(method) {
        // A connection the server closed or refused under load: a request that changes nothing is
        // sent again, after a pause, as HTTP clients do (RFC 9110 §9.2.2).
        try? await Task.sleep(for: Self.retries[attempt])
        attempt += 1
      } catch {
        throw .remote(error)
      }
    }
    if answer.status == 401 || (answer.status == 403 && !forbiddenAnswers) {
      throw .refused(status: answer.status, url: at.description)
    }
    if answer.status == 429 || answer.status == 503 {
      throw .busy(status: answer.status, retryAfter: answer.header("Retry-After").flatMap { Self.retryAfter($0) })
    }
    return (answer, at)
  }

  /// PROPFIND of `properties` at `url` with `depth`: the responses, by href, with the properties
  /// found.
  func propfind(_ url: RemoteURL, depth: Int, _ properties: [XMLName]) async throws(AccountError) -> (
    [Response], RemoteURL
  ) {
    let prefixes = Namespace.prefixes.map { " xmlns:\($0.prefix)=\"\($0.uri)\"" }.joined()
    let names = properties.map { name in
      let prefix = Namespace.prefixes.first { $0.uri == name.namespace }?.prefix ?? "D"
      return "<\(prefix):\(name.local)/>"
    }.joined()
    let body = "<?xml version=\"1.0\" encoding=\"utf-8\"?><D:propfind\(prefixes)><D:prop>\(names)</D:prop></D:propfind>"
    let (answer, at) = try await send("PROPFIND", url, depth: depth, body: body)
    guard answer.status == 207 else {
      throw .notDAV("PROPFIND \(at) answered \(answer.status)")
    }
    return (try Self.responses(answer.body), at)
  }

  /// The responses of a multistatus body.
  static func responses(_ body: [UInt8]) throws(AccountError) -> [Response] {
    try multistatus(body).responses
  }

  /// The responses of a multistatus body, and its `sync-token` (RFC 6578) when it has one.
  static func multistatus(_ body: [UInt8]) throws(AccountError) -> (responses: [Response], syncToken: String?) {
    let root: XMLElement
    do {
      root = try XMLReader.parse(body)
    } catch {
      throw .notDAV("its multistatus is not XML: \(error)")
    }
    guard root.name == .dav("multistatus") else { throw .notDAV("the answer is \(root.name), not a multistatus") }
    let responses: [Response] = root.children(.dav("response")).compactMap { response in
      guard let href = response.child(.dav("href"))?.text.trimmed, !href.isEmpty else { return nil }
      var properties: [XMLName: XMLElement] = [:]
      for propstat in response.children(.dav("propstat")) {
        guard let status = propstat.child(.dav("status"))?.text, status.contains(" 200") else { continue }
        for property in propstat.child(.dav("prop"))?.children ?? [] { properties[property.name] = property }
      }
      let status = response.child(.dav("status")).flatMap { Self.statusCode($0.text) }
      return Response(href: href, properties: properties, status: status)
    }
    return (responses, root.child(.dav("sync-token"))?.text.trimmed)
  }

  /// The seconds a `Retry-After` asks for (RFC 9110 §10.2.3): a number of seconds, or an HTTP
  /// date from `now`.
  static func retryAfter(_ value: String, now: Date = Date()) -> Int? {
    let text = value.trimmed
    if let seconds = Int(text) { return max(0, seconds) }
    guard let date = HTTPDate.date(text) else { return nil }
    return max(0, Int(date.timeIntervalSince(now).rounded(.up)))
  }

  /// The code of an HTTP status line (`HTTP/1.1 404 Not Found`).
  static func statusCode(_ line: String) -> Int? {
    line.trimmed.split(separator: " ").dropFirst().first.flatMap { Int($0) }
  }
}

extension String {
  /// `nil` for the empty string.
  var nilIfEmpty: String? { isEmpty ? nil : self }

  /// Without the white space XML may put around a value.
  var trimmed: String {
    var text = Substring(self)
    while let first = text.first, first.isWhitespace { text = text.dropFirst() }
    while let last = text.last, last.isWhitespace { text = text.dropLast() }
    return String(text)
  }
}
