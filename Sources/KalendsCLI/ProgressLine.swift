import Foundation

/// A progress line on standard error when it is a terminal; silent when piped.
final class ProgressLine {
  private let label: String
  private let enabled = isatty(STDERR_FILENO) == 1
  private var shown = false

  init(label: String) { self.label = label }

  func update(done: Int, total: Int) {
    guard enabled else { return }
    let percent = total > 0 ? min(100, done * 100 / total) : 100
    FileHandle.standardError.write(Data("\r\(label) \(done)/\(total) (\(percent)%)".utf8))
    shown = true
  }

  func finish() {
    guard enabled, shown else { return }
    FileHandle.standardError.write(Data("\r\u{1B}[K".utf8))
  }
}
