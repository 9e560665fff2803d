import Dispatch
import Foundation
import Kalends
import Synchronization

/// The consent prompts waiting for the person. An app's access request that needs the person's
/// answer waits here, on a thread of its own, until the person answers through the owner's channel
/// (`kalends prompts answer`) or the timeout passes; the app can list or answer nothing here.
final class PromptDesk: Sendable {
  /// A prompt waiting for its answer.
  struct Pending: Sendable {
    /// Its number, unique while the server runs.
    let id: UInt64
    /// What the person is asked.
    let request: ConsentRequest
    /// What the kernel said about the asking process.
    let evidence: CallerEvidence
    /// When it was asked.
    let asked: Date
  }

  /// The person's answer, with what the person chose: the contacts of a `limited` answer, the
  /// calendars of an `allow` of full access to calendars (`nil`: all).
  struct Answer: Sendable {
    let answer: ConsentAnswer
    var contacts: [ObjectID] = []
    var calendars: [ObjectID]? = nil
  }

  private struct State: Sendable {
    var next: UInt64 = 1
    var waiting: [UInt64: (Pending, DispatchSemaphore)] = [:]
    var answers: [UInt64: Answer] = [:]
  }

  private let state = Mutex(State())
  /// How long a prompt waits for the person.
  let timeout: Duration

  init(timeout: Duration) {
    self.timeout = timeout
  }

  /// Puts `request` before the person and blocks the calling thread until it is answered or the
  /// timeout passes; `nil` then.
  func ask(_ request: ConsentRequest, from evidence: CallerEvidence) -> Answer? {
    let semaphore = DispatchSemaphore(value: 0)
    let id = state.withLock { state in
      let id = state.next
      state.next += 1
      state.waiting[id] = (Pending(id: id, request: request, evidence: evidence, asked: Date()), semaphore)
      return id
    }
    let (seconds, attoseconds) = timeout.components
    let nanoseconds = Int(clamping: seconds) * 1_000_000_000 + Int(attoseconds / 1_000_000_000)
    _ = semaphore.wait(timeout: .now() + .nanoseconds(nanoseconds))
    // An answer given before this point counts, even when it came as the wait ended.
    return state.withLock { state in
      state.waiting[id] = nil
      return state.answers.removeValue(forKey: id)
    }
  }

  /// The prompts waiting, oldest first.
  var pending: [Pending] {
    state.withLock { $0.waiting.values.map(\.0) }.sorted { $0.id < $1.id }
  }

  /// Answers prompt `id`; `false` when no such prompt waits (answered, timed out, never asked).
  func answer(_ id: UInt64, with answer: Answer) -> Bool {
    state.withLock { state in
      guard let (_, semaphore) = state.waiting.removeValue(forKey: id) else { return false }
      state.answers[id] = answer
      semaphore.signal()
      return true
    }
  }
}

/// Where the server asks the person: at the desk `kalends prompts` reads, or on its terminal.
enum PromptChannel: Sendable {
  case desk(PromptDesk)
  case terminal(TerminalDesk)
}

/// The person's channel as the library's prompter for one caller's request: it keeps what the
/// person chose with the answer for the library's questions that follow it.
struct DeskPrompter: ConsentPrompter {
  let channel: PromptChannel
  let evidence: CallerEvidence
  private let chosen = Chosen()

  /// What the person chose with the last answer.
  private final class Chosen: Sendable {
    let value = Mutex(PromptDesk.Answer(answer: .deny))
  }

  init(channel: PromptChannel, evidence: CallerEvidence) {
    self.channel = channel
    self.evidence = evidence
  }

  func answer(_ request: ConsentRequest) -> ConsentAnswer? {
    let answer: PromptDesk.Answer? =
      switch channel {
      case .desk(let desk): desk.ask(request, from: evidence)
      case .terminal(let terminal): terminal.ask(request, from: evidence).map { PromptDesk.Answer(answer: $0) }
      }
    if let answer { chosen.value.withLock { $0 = answer } }
    return answer?.answer
  }

  func chosenContacts(_ request: ConsentRequest) -> [ObjectID] { chosen.value.withLock { $0.contacts } }

  func chosenCalendars(_ request: ConsentRequest) -> [ObjectID]? { chosen.value.withLock { $0.calendars } }
}
