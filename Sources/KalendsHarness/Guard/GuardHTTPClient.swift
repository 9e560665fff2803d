import Foundation

/// One kept-alive HTTP/1.1 connection over a Unix socket, blocking: the same client for the store
/// server and for its floor, so that what differs between their times is the server's.
final class GuardHTTPClient {
  private let descriptor: Int32
  private var buffer: [UInt8] = []

  /// Connects to the Unix socket at `path`.
  init(socket path: String) throws {
    descriptor = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
    guard descriptor >= 0 else { throw GuardFailure("socket: errno \(errno)") }
    var address = sockaddr_un()
    address.sun_family = sa_family_t(AF_UNIX)
    let bytes = Array(path.utf8)
    guard bytes.count < MemoryLayout.size(ofValue: address.sun_path) else { throw GuardFailure("socket path too long") }
    withUnsafeMutableBytes(of: &address.sun_path) { raw in
      raw.copyBytes(from: bytes)
      raw[bytes.count] = 0
    }
    let connected = withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
      }
    }
    guard connected == 0 else {
      close(descriptor)
      throw GuardFailure("connect \(path): errno \(errno)")
    }
  }

  deinit { close(descriptor) }

  /// Sends one request and reads its whole answer: the status and the body.
  func request(
    _ method: String, _ path: String, body: String = "", headers: [String: String] = [:]
  ) throws -> (status: Int, body: [UInt8]) {
    var head = "\(method) \(path) HTTP/1.1\r\nHost: kalends\r\nContent-Length: \(body.utf8.count)\r\n"
    for (name, value) in headers { head += "\(name): \(value)\r\n" }
    let message = Array((head + "\r\n" + body).utf8)
    var sent = 0
    while sent < message.count {
      let written = message[sent...].withUnsafeBytes { send(descriptor, $0.baseAddress, $0.count, 0) }
      guard written > 0 else { throw GuardFailure("send: errno \(errno)") }
      sent += written
    }
    let header = try readHead()
    let lines = header.split(separator: "\r\n")
    guard let statusLine = lines.first, statusLine.split(separator: " ").count >= 2,
      let status = Int(statusLine.split(separator: " ")[1])
    else { throw GuardFailure("not an HTTP answer: \(header.prefix(80))") }
    var fields: [String: String] = [:]
    for line in lines.dropFirst() {
      guard let colon = line.firstIndex(of: ":") else { continue }
      fields[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
    }
    if fields["transfer-encoding"]?.lowercased() == "chunked" {
      var answer: [UInt8] = []
      while true {
        let sizeLine = try readLine()
        guard let size = Int(sizeLine.split(separator: ";").first ?? "", radix: 16) else {
          throw GuardFailure("bad chunk size \(sizeLine)")
        }
        if size == 0 {
          while try !readLine().isEmpty {}
          return (status, answer)
        }
        answer += try read(size)
        _ = try readLine()
      }
    }
    return (status, try read(Int(fields["content-length"] ?? "0") ?? 0))
  }

  private func fill() throws {
    var chunk = [UInt8](repeating: 0, count: 65_536)
    let count = chunk.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
    guard count > 0 else { throw GuardFailure("the server closed the connection") }
    buffer += chunk[0..<count]
  }

  private func readHead() throws -> String {
    while true {
      if let end = Self.find([13, 10, 13, 10], in: buffer) {
        let head = String(decoding: buffer[0..<end], as: UTF8.self)
        buffer.removeFirst(end + 4)
        return head
      }
      try fill()
    }
  }

  private func readLine() throws -> String {
    while true {
      if let end = Self.find([13, 10], in: buffer) {
        let line = String(decoding: buffer[0..<end], as: UTF8.self)
        buffer.removeFirst(end + 2)
        return line
      }
      try fill()
    }
  }

  private func read(_ count: Int) throws -> [UInt8] {
    while buffer.count < count { try fill() }
    let bytes = Array(buffer[0..<count])
    buffer.removeFirst(count)
    return bytes
  }

  private static func find(_ needle: [UInt8], in haystack: [UInt8]) -> Int? {
    guard haystack.count >= needle.count else { return nil }
    for index in 0...(haystack.count - needle.count) where haystack[index] == needle[0] {
      if Array(haystack[index..<(index + needle.count)]) == needle { return index }
    }
    return nil
  }
}
