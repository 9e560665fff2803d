import Foundation
import KalendsFormats

/// A stream connection to a Unix socket by path, for the `kalends` command's side of the store
/// server: its HTTP client, and `serve`'s check for a server already listening.
enum UnixSocket {
  /// A connected socket to `path` (close it), or `nil` with `errno` set when nobody accepts there.
  /// Throws a usage error (64) when the path does not fit a socket address.
  static func connect(to path: String) throws -> CInt? {
    var address = sockaddr_un()
    address.sun_family = sa_family_t(AF_UNIX)
    let bytes = Array(path.utf8)
    guard bytes.count < MemoryLayout.size(ofValue: address.sun_path) else {
      throw ServerError(message: "the socket path \(path) is too long", category: .usage)
    }
    withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: bytes) }
    let descriptor = Foundation.socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
    guard descriptor >= 0 else { throw ServerError(message: "cannot create a socket", category: .storage) }
    let connected = withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        Foundation.connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
      }
    }
    guard connected == 0 else {
      let error = errno
      close(descriptor)
      errno = error
      return nil
    }
    return descriptor
  }
}
