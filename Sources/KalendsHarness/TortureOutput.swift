import Foundation
import Synchronization

/// The writer's journal on standard output: one line per event, written straight to the file
/// descriptor (no buffer that a SIGKILL would lose) and never interleaved between threads.
final class TortureOutput: Sendable {
  private let lock = Mutex(())
  private let failed = Mutex<[String]>([])

  /// What went wrong, in the order reported.
  var failures: [String] { failed.withLock { $0 } }

  /// Journals a failure (`fail MESSAGE`) and remembers it.
  func fail(_ message: String) {
    let line = message.replacingOccurrences(of: "\n", with: " ")
    failed.withLock { $0.append(line) }
    emit("fail \(line)")
  }

  /// Writes `line` and a newline in one `write(2)`.
  func emit(_ line: String) {
    let bytes = Array((line + "\n").utf8)
    lock.withLock { _ in
      var offset = 0
      while offset < bytes.count {
        let written = bytes[offset...].withUnsafeBytes { write(1, $0.baseAddress, $0.count) }
        if written <= 0 { return }
        offset += written
      }
    }
  }
}
