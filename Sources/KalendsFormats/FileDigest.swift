import Foundation
import Kalends

/// The SHA-256 of a file's bytes, read in blocks.
package enum FileDigest {
  /// The digest of the file at `path`; `nil` when it cannot be read.
  package static func sha256(ofFileAt path: String) -> [UInt8]? {
    let descriptor = open(path, O_RDONLY | O_CLOEXEC)
    guard descriptor >= 0 else { return nil }
    defer { close(descriptor) }
    return sha256(ofDescriptor: descriptor)
  }

  /// The digest of the bytes of the open file `descriptor` from its start; `nil` when it cannot
  /// be read.
  package static func sha256(ofDescriptor descriptor: CInt) -> [UInt8]? {
    guard lseek(descriptor, 0, SEEK_SET) == 0 else { return nil }
    var hasher = Kalends.SHA256()
    var buffer = [UInt8](repeating: 0, count: 1 << 16)
    while true {
      let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
      if count < 0 { return nil }
      if count == 0 { break }
      buffer.withUnsafeBytes { hasher.update(bufferPointer: UnsafeRawBufferPointer(rebasing: $0[..<count])) }
    }
    return Array(hasher.finalize())
  }

  /// Lower-case hex.
  package static func hex(_ bytes: [UInt8]) -> String { Hex.encode(bytes) }

  /// The bytes of 64 hex digits; `nil` for anything else.
  package static func bytes(hex text: String) -> [UInt8]? {
    text.utf8.count == 64 ? Hex.decode(text) : nil
  }
}
