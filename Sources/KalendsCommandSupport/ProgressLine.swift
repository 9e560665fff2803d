import Foundation

/// A progress bar on standard error when it is a terminal; silent when piped.
package final class ProgressLine {
  private let label: String
  private let enabled = isatty(STDERR_FILENO) == 1
  private var shown = false

  /// The bar's width in characters.
  package static let width = 30

  package init(label: String) { self.label = label }

  /// Shows `done` of `total`, after `label` when given (else the one it was made with); a shorter
  /// line clears what is left of the last one.
  package func update(done: Int, total: Int, label: String? = nil) {
    guard enabled else { return }
    let percent = total > 0 ? min(100, done * 100 / total) : 100
    let filled = percent * Self.width / 100
    let bar = String(repeating: "#", count: filled) + String(repeating: ".", count: Self.width - filled)
    FileHandle.standardError.write(Data("\r\(label ?? self.label) [\(bar)] \(percent)% \(done)/\(total)\u{1B}[K".utf8))
    shown = true
  }

  package func finish() {
    guard enabled, shown else { return }
    FileHandle.standardError.write(Data("\r\u{1B}[K".utf8))
  }
}
