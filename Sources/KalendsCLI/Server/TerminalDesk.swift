import Foundation
import Kalends
import Synchronization

/// `kalends serve --prompt tty`: the person answers on the server's own terminal (its standard
/// error and input), one prompt at a time, within the prompt timeout; no answer in time, or the
/// end of input, is no answer.
final class TerminalDesk: Sendable {
  private let turn = Mutex(())
  let timeout: Duration

  init(timeout: Duration) {
    self.timeout = timeout
  }

  /// Asks the person on the terminal and waits for a line; `nil` without an answer in time.
  func ask(_ request: ConsentRequest, from evidence: CallerEvidence) -> ConsentAnswer? {
    turn.withLock { _ in
      let what = request.level == .full ? "full access to your \(request.service)" : "to add events to your calendars"
      let choices = request.service == .calendars && request.level == .full ? "allow/write-only/deny" : "allow/deny"
      var text =
        "“\(request.client.name)” (\(evidence.executable ?? evidence.flatpakApp ?? evidence.tokenID.map { "token \($0)" } ?? "pid \(evidence.pid ?? 0)")) "
      text += "would like \(what)"
      if request.isUpgrade { text += " (it can already add events)" }
      text += ".\n  \(request.usageDescription)\n[\(choices)]? "
      FileHandle.standardError.write(Data(text.utf8))
      let deadline = ContinuousClock.now + timeout
      while let line = readLine(until: deadline) {
        if let answer = ConsentAnswer(rawValue: line.trimmingCharacters(in: .whitespaces).lowercased()) {
          return answer
        }
        FileHandle.standardError.write(Data("please answer \(choices): ".utf8))
      }
      FileHandle.standardError.write(Data("\n(no answer: nothing is decided)\n".utf8))
      return nil
    }
  }

  /// A line of standard input, waiting at most until `deadline`; `nil` at the deadline or the end
  /// of input.
  private func readLine(until deadline: ContinuousClock.Instant) -> String? {
    var line: [UInt8] = []
    while true {
      let left = ContinuousClock.now.duration(to: deadline)
      guard left > .zero else { return nil }
      var entry = pollfd(fd: STDIN_FILENO, events: Int16(POLLIN), revents: 0)
      let milliseconds = Int32(
        clamping: left.components.seconds * 1000 + left.components.attoseconds / 1_000_000_000_000_000 + 1)
      guard poll(&entry, 1, milliseconds) > 0 else { return nil }
      var byte: UInt8 = 0
      guard read(STDIN_FILENO, &byte, 1) == 1 else { return line.isEmpty ? nil : String(decoding: line, as: UTF8.self) }
      if byte == UInt8(ascii: "\n") { return String(decoding: line, as: UTF8.self) }
      line.append(byte)
    }
  }
}
