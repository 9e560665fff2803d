import Foundation
import KalendsFormats

/// One HTTP/1.1 request over a Unix socket, as the `kalends` command asks the store server (the
/// person's channel): a blocking exchange with `Connection: close`, the body read to the end.
package enum UnixHTTPClient {
  /// A response: the status and the body.
  package struct Response {
    package let status: Int
    package let body: String
  }

  /// Sends `method path` to the server at `socket` and returns its response. Throws a storage
  /// error (70) when no server answers there.
  package static func request(_ method: String, _ path: String, socket: String) throws -> Response {
    guard let descriptor = try UnixSocket.connect(to: socket) else {
      throw ServerError(
        message:
          "no store server answers on \(socket): \(String(cString: strerror(errno))) (start it with kalends serve)",
        category: .storage)
    }
    defer { close(descriptor) }
    return try exchange(
      "\(method) \(path) HTTP/1.1\r\nHost: kalends\r\nConnection: close\r\nContent-Length: 0\r\n\r\n", on: descriptor)
  }

  /// Writes the whole `request` (with `Connection: close`) on the connected `descriptor`, reads
  /// the answer to its end and parses it; the caller closes the descriptor.
  package static func exchange(_ request: String, on descriptor: Int32) throws -> Response {
    var pending = Array(request.utf8)[...]
    while !pending.isEmpty {
      let written = pending.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
      guard written > 0 else {
        throw ServerError(message: "the store server closed the connection", category: .storage)
      }
      pending = pending.dropFirst(written)
    }
    var received: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 1 << 14)
    while true {
      let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
      if count <= 0 { break }
      received += buffer[..<count]
    }
    return try parse(received)
  }

  /// Parses a whole response: the status line, the headers, and a body of `Content-Length` bytes
  /// or in chunks.
  static func parse(_ bytes: [UInt8]) throws -> Response {
    let separator: [UInt8] = Array("\r\n\r\n".utf8)
    guard let end = bytes.indices.first(where: { bytes[$0...].starts(with: separator) }) else {
      throw ServerError(message: "the store server's answer is malformed", category: .storage)
    }
    let head = String(decoding: bytes[..<end], as: UTF8.self).components(separatedBy: "\r\n")
    let statusLine = head.first?.split(separator: " ") ?? []
    guard statusLine.count >= 2, let status = Int(statusLine[1]) else {
      throw ServerError(message: "the store server's answer has no status", category: .storage)
    }
    var body = Array(bytes[(end + 4)...])
    let chunked = head.dropFirst().contains {
      $0.lowercased().hasPrefix("transfer-encoding:") && $0.contains("chunked")
    }
    if chunked { body = dechunk(body) }
    return Response(status: status, body: String(decoding: body, as: UTF8.self))
  }

  /// The body of a chunked transfer encoding.
  private static func dechunk(_ bytes: [UInt8]) -> [UInt8] {
    var out: [UInt8] = []
    var index = 0
    while index < bytes.count {
      guard let lineEnd = (index..<(bytes.count - 1)).first(where: { bytes[$0] == 13 && bytes[$0 + 1] == 10 }),
        let size = Int(String(decoding: bytes[index..<lineEnd], as: UTF8.self).split(separator: ";")[0], radix: 16),
        size > 0
      else { break }
      let start = lineEnd + 2
      out += bytes[start..<min(start + size, bytes.count)]
      index = start + size + 2
    }
    return out
  }
}
