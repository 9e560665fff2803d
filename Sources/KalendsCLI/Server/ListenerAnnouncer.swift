import Foundation
import Synchronization

/// Announces `kalends serve`'s listeners (`listening on …` lines, which scripts and service
/// managers wait for) only once every one of them is bound: a listener that cannot bind (a TCP
/// port in use) fails the server before anything was announced, so no one connects to a server
/// that is about to exit.
final class ListenerAnnouncer: Sendable {
  private let expected: Int
  private let lines = Mutex<[String]>([])

  /// An announcer for `expected` listeners.
  init(expected: Int) {
    self.expected = expected
  }

  /// Notes that a listener is bound, with its line; prints every line once the last is bound.
  func bound(_ line: String) {
    let ready: [String]? = lines.withLock { lines in
      lines.append(line)
      return lines.count == expected ? lines : nil
    }
    if let ready { FileHandle.standardOutput.write(Data(ready.map { $0 + "\n" }.joined().utf8)) }
  }

  /// Whether every listener was bound (and announced).
  var isAnnounced: Bool { lines.withLock { $0.count >= expected } }
}
