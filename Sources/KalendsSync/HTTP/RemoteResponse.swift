/// A remote server's answer to one request.
public struct RemoteResponse: Sendable {
  /// The status code.
  public let status: Int
  /// The header fields, in order.
  public let headers: [(name: String, value: String)]
  /// The body.
  public let body: [UInt8]

  /// The first value of the header `name` (case-insensitive).
  public func header(_ name: String) -> String? {
    headers.first { $0.name.lowercased() == name.lowercased() }?.value
  }
}
