/// A request to the store server, as the client sends it.
struct HTTPRequest: Sendable {
  var method: String
  /// The path and query, percent-encoded.
  var target: String
  var headers: [(String, String)] = []
  var body: [UInt8]? = nil
}

/// A whole response of the store server.
struct HTTPResponse: Sendable {
  let status: Int
  let headers: [(String, String)]
  let body: [UInt8]

  /// The first value of header `name` (case-insensitive).
  func header(_ name: String) -> String? {
    headers.first { $0.0.lowercased() == name.lowercased() }?.1
  }
}
