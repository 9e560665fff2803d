import Foundation

/// A connection to the person's D-Bus session bus, made for one call and closed after it: enough
/// of the D-Bus protocol (the `EXTERNAL` authentication by the process's user, `Hello`, a method
/// call and its answer) to show a notification through `org.freedesktop.Notifications` without any
/// program in between — a headless machine, an ssh session or a minimal desktop without
/// `notify-send` still has the bus its desktop session runs.
struct SessionBus {
  /// Why a call failed, in words for the server's log.
  struct Failure: Error, CustomStringConvertible {
    let description: String
  }

  /// The Unix socket of a bus address: a path, or a name in the abstract namespace.
  enum Endpoint: Equatable {
    case path(String)
    case abstract(String)
  }

  let endpoint: Endpoint

  /// The first Unix endpoint `address` names (`DBUS_SESSION_BUS_ADDRESS`: `unix:path=…` or
  /// `unix:abstract=…`, several separated by `;`, values percent-escaped); `nil` when it names none.
  static func endpoint(of address: String) -> Endpoint? {
    for entry in address.split(separator: ";") {
      guard entry.hasPrefix("unix:") else { continue }
      for pair in entry.dropFirst(5).split(separator: ",") {
        let parts = pair.split(separator: "=", maxSplits: 1).map(String.init)
        guard parts.count == 2, let value = parts[1].removingPercentEncoding, !value.isEmpty else { continue }
        if parts[0] == "path" { return .path(value) }
        if parts[0] == "abstract" { return .abstract(value) }
      }
    }
    return nil
  }

  /// Calls `org.freedesktop.Notifications.Notify` (the Desktop Notifications Specification) with
  /// `summary` and `body` from the app "Kalends", waiting at most `timeout` for the whole exchange.
  /// The text is the notification's, never a program's arguments: nothing an app wrote in a title
  /// is read as an option.
  func notify(summary: String, body: String, timeout: Duration) throws(Failure) {
    let socket = try connect(timeout: timeout)
    defer { close(socket) }
    var reader = Reader(socket: socket)
    try authenticate(socket, &reader)
    try send(
      DBusMessage.methodCall(
        serial: 1, destination: "org.freedesktop.DBus", path: "/org/freedesktop/DBus",
        interface: "org.freedesktop.DBus", member: "Hello"), on: socket)
    try answer(to: 1, &reader, what: "the bus's Hello")
    try send(
      DBusMessage.methodCall(
        serial: 2, destination: "org.freedesktop.Notifications", path: "/org/freedesktop/Notifications",
        interface: "org.freedesktop.Notifications", member: "Notify", signature: "susssasa{sv}i",
        body: [
          .string("Kalends"), .uint32(0), .string(""), .string(summary), .string(body), .strings([]),
          .emptyVariantDictionary, .int32(-1),
        ]), on: socket)
    try answer(to: 2, &reader, what: "the notification service")
  }

  private func connect(timeout: Duration) throws(Failure) -> CInt {
    var address = sockaddr_un()
    address.sun_family = sa_family_t(AF_UNIX)
    let name: [UInt8]
    switch endpoint {
    case .path(let path): name = Array(path.utf8)
    case .abstract(let text): name = [0] + Array(text.utf8)
    }
    guard name.count < MemoryLayout.size(ofValue: address.sun_path) else {
      throw Failure(description: "the session bus's address is too long")
    }
    withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: name) }
    let descriptor = Foundation.socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
    guard descriptor >= 0 else {
      throw Failure(description: "cannot create a socket: \(String(cString: strerror(errno)))")
    }
    // Every read and write waits at most the timeout: a bus or a service that hangs holds up
    // nothing but this call's own thread.
    let seconds = max(1, Int(timeout.components.seconds))
    var limit = timeval(tv_sec: seconds, tv_usec: 0)
    setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &limit, socklen_t(MemoryLayout<timeval>.size))
    setsockopt(descriptor, SOL_SOCKET, SO_SNDTIMEO, &limit, socklen_t(MemoryLayout<timeval>.size))
    // An abstract name is as long as it is, with no terminating NUL.
    let length =
      if case .abstract = endpoint {
        socklen_t(MemoryLayout.offset(of: \sockaddr_un.sun_path)! + name.count)
      } else { socklen_t(MemoryLayout<sockaddr_un>.size) }
    let connected = withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Foundation.connect(descriptor, $0, length) }
    }
    guard connected == 0 else {
      let reason = String(cString: strerror(errno))
      close(descriptor)
      throw Failure(description: "cannot reach the session bus: \(reason)")
    }
    return descriptor
  }

  /// The `EXTERNAL` mechanism: the bus checks the user this process runs as against the one it
  /// names (its id in hexadecimal digits of its decimal text).
  private func authenticate(_ socket: CInt, _ reader: inout Reader) throws(Failure) {
    let user = String(getuid()).utf8.map { String(format: "%02x", $0) }.joined()
    try send([0] + Array("AUTH EXTERNAL \(user)\r\n".utf8), on: socket)
    let line = try reader.line()
    guard line.hasPrefix("OK ") else { throw Failure(description: "the session bus refused this user: \(line)") }
    try send(Array("BEGIN\r\n".utf8), on: socket)
  }

  /// Reads messages until the answer to `serial`; throws its error.
  private func answer(to serial: UInt32, _ reader: inout Reader, what: String) throws(Failure) {
    while true {
      let message = try reader.message()
      guard message.replySerial == serial else { continue }
      if message.kind == .error {
        throw Failure(
          description: "\(what) answered \(message.errorName ?? "an error")"
            + (message.firstString.map { ": \($0)" } ?? ""))
      }
      return
    }
  }

  private func send(_ bytes: [UInt8], on socket: CInt) throws(Failure) {
    var sent = 0
    while sent < bytes.count {
      let count = bytes[sent...].withUnsafeBytes {
        Foundation.send(socket, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL))
      }
      guard count > 0 else { throw Failure(description: "the session bus closed: \(String(cString: strerror(errno)))") }
      sent += count
    }
  }

  /// What the bus sent, read as lines while authenticating and as messages after.
  private struct Reader {
    let socket: CInt
    var buffer: [UInt8] = []

    /// The largest message read: a notification service's answer is a few dozen bytes.
    static let maximumMessage = 1 << 20

    mutating func fill() throws(Failure) {
      var chunk = [UInt8](repeating: 0, count: 4_096)
      let count = chunk.withUnsafeMutableBytes { recv(socket, $0.baseAddress, $0.count, 0) }
      guard count > 0 else {
        throw Failure(description: count == 0 ? "the session bus closed" : "no answer from the session bus in time")
      }
      buffer += chunk[..<count]
    }

    mutating func line() throws(Failure) -> String {
      while true {
        if let end = buffer.firstIndex(of: 0x0A) {
          defer { buffer.removeFirst(end + 1) }
          return String(decoding: buffer[..<end], as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        }
        guard buffer.count < 16_384 else { throw Failure(description: "the session bus sent no line") }
        try fill()
      }
    }

    mutating func message() throws(Failure) -> DBusMessage.Received {
      while true {
        if buffer.count >= 16 {
          guard let length = DBusMessage.length(of: buffer[...]), length <= Self.maximumMessage else {
            throw Failure(description: "the session bus sent a message this client does not read")
          }
          if buffer.count >= length {
            defer { buffer.removeFirst(length) }
            return DBusMessage.parse(buffer[..<length])
          }
        }
        try fill()
      }
    }
  }
}
