import Foundation
import Kalends
import KalendsFormats
import Synchronization

/// `kalends serve --prompt tty`: the person answers on the server's own terminal (its standard
/// error and input), one prompt at a time, within the prompt timeout; no answer in time, or the
/// end of input, is no answer. A call that waited its turn while the same question was answered
/// takes that answer instead of asking again, as calls share a prompt at the socket's desk.
final class TerminalDesk: Sendable {
  /// The turn at the terminal, and the answers given in the last hour, by question, with when.
  private let turn = Mutex<[PromptDesk.Question: (reply: PromptDesk.Reply, at: ContinuousClock.Instant)]>([:])
  let timeout: Duration

  init(timeout: Duration) {
    self.timeout = timeout
  }

  /// Asks the person on the terminal and waits for a line; `nil` without an answer in time. The
  /// line is the answer, then what the person chooses with it: `limited ID…` (the contacts an app
  /// may use), `allow ID…` for full access to calendars (the only calendars given).
  func ask(_ request: ConsentRequest, from evidence: CallerEvidence) -> PromptDesk.Answer? {
    let reply = inTurn(.access(request)) { askNow(request, from: evidence).map { .access($0) } }
    guard case .access(var answer) = reply else { return nil }
    // The person answered at the server's own terminal: the server's process speaks for them.
    answer.answeredBy = PeerEvidence.ownProcess
    return answer
  }

  /// Takes the turn at the terminal for `question`: the answer given to it while this call waited
  /// for the turn, else `body`'s, which the calls waiting behind it may share.
  private func inTurn(_ question: PromptDesk.Question, _ body: () -> PromptDesk.Reply?) -> PromptDesk.Reply? {
    let arrived = ContinuousClock.now
    return turn.withLock { answered in
      if let given = answered[question], given.at > arrived { return given.reply }
      let reply = body()
      let now = ContinuousClock.now
      answered = answered.filter { now - $0.value.at < .seconds(3600) }
      if let reply { answered[question] = (reply, now) }
      return reply
    }
  }

  private func askNow(_ request: ConsentRequest, from evidence: CallerEvidence) -> PromptDesk.Answer? {
    let what = request.level == .full ? "full access to your \(request.service)" : "to add events to your calendars"
    let choices =
      switch (request.service, request.level) {
      case (.calendars, .full): "allow [calendar ID…]/write-only/deny"
      case (.contacts, _): "allow/limited contact ID…/deny"
      default: "allow/deny"
      }
    var text = "“\(TerminalText.escaped(request.client.name))” (\(Self.describe(evidence))) would like \(what)"
    if request.isUpgrade { text += " (it can already add events)" }
    text += ".\n  \(TerminalText.escaped(request.usageDescription))\n[\(choices)]? "
    FileHandle.standardError.write(Data(text.utf8))
    let deadline = ContinuousClock.now + timeout
    while let line = readLine(until: deadline) {
      if let answer = Self.answer(line, to: request) { return answer }
      FileHandle.standardError.write(Data("please answer \(choices): ".utf8))
    }
    FileHandle.standardError.write(Data("\n(no answer: nothing is decided)\n".utf8))
    return nil
  }

  /// Shows the contact picker for `client` on the terminal: the person picks a contact by its
  /// number; an empty line, or no answer in time, cancels.
  func pick(for client: Client, from contacts: [Contact], evidence: CallerEvidence) -> ObjectID? {
    let reply = inTurn(.pick(client)) { pickNow(for: client, from: contacts, evidence: evidence).map { .pick($0) } }
    guard case .pick(let picked) = reply else { return nil }
    return picked
  }

  private func pickNow(for client: Client, from contacts: [Contact], evidence: CallerEvidence) -> ObjectID? {
    var text = "“\(TerminalText.escaped(client.name))” (\(Self.describe(evidence))) shows the contact picker"
    text += " (it gets the card picked, no access):\n"
    for (index, contact) in contacts.enumerated() {
      text += "  \(index + 1). \(TerminalText.escaped(contact.displayName))\n"
    }
    text += "number, or empty to cancel: "
    FileHandle.standardError.write(Data(text.utf8))
    let deadline = ContinuousClock.now + timeout
    while let line = readLine(until: deadline) {
      let trimmed = line.trimmingCharacters(in: .whitespaces)
      if trimmed.isEmpty { break }
      if let number = Int(trimmed), contacts.indices.contains(number - 1) { return contacts[number - 1].id }
      FileHandle.standardError.write(Data("a number from 1 to \(contacts.count), or empty to cancel: ".utf8))
    }
    FileHandle.standardError.write(Data("(nothing picked)\n".utf8))
    return nil
  }

  /// A line of the person's as an answer to `request`; `nil` when it is not one.
  static func answer(_ line: String, to request: ConsentRequest) -> PromptDesk.Answer? {
    let words = line.split(whereSeparator: \.isWhitespace).map(String.init)
    guard let first = words.first, let answer = ConsentAnswer(rawValue: first.lowercased()) else { return nil }
    var ids: [ObjectID] = []
    for word in words.dropFirst() {
      guard let id = ObjectID(word) else { return nil }
      ids.append(id)
    }
    switch answer {
    case .limited where request.service == .contacts:
      return ids.isEmpty ? nil : PromptDesk.Answer(answer: answer, contacts: ids)
    case .allow where request.service == .calendars && request.level == .full:
      return PromptDesk.Answer(answer: answer, calendars: ids.isEmpty ? nil : ids)
    default:
      return ids.isEmpty ? PromptDesk.Answer(answer: answer) : nil
    }
  }

  /// The asking process as the person reads it, escaped: an app chooses its own path.
  private static func describe(_ evidence: CallerEvidence) -> String {
    TerminalText.escaped(describing(evidence))
  }

  private static func describing(_ evidence: CallerEvidence) -> String {
    evidence.executable ?? evidence.flatpakApp ?? evidence.tokenID.map { "token \($0)" } ?? "pid \(evidence.pid ?? 0)"
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
