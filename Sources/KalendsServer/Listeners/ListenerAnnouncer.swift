import Synchronization

/// Announces `kalends serve`'s listeners (`listening on …` lines, which scripts and service
/// managers wait for) only once every one of them is bound: a listener that cannot bind (a TCP
/// port in use) fails the server before anything was announced, so no one connects to a server
/// that is about to exit.
final class ListenerAnnouncer: Sendable {
  private let expected: Int
  private let lines = Mutex<[String]>([])
  private let announce: @Sendable ([String]) -> Void

  /// An announcer for `expected` listeners, that gives `announce` their lines once all are bound.
  init(expected: Int, announce: @escaping @Sendable ([String]) -> Void) {
    self.expected = expected
    self.announce = announce
  }

  /// Notes that a listener is bound, with its line; announces every line once the last is bound.
  func bound(_ line: String) {
    let ready: [String]? = lines.withLock { lines in
      lines.append(line)
      return lines.count == expected ? lines : nil
    }
    if let ready { announce(ready) }
  }

  /// Whether every listener was bound (and announced).
  var isAnnounced: Bool { lines.withLock { $0.count >= expected } }
}
