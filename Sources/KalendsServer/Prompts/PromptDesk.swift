import Dispatch
import Foundation
import Kalends
import KalendsFormats
import Synchronization

/// The prompts waiting for the person: an app's access request that needs the person's answer,
/// or an app's contact picker, waits here, on a thread of its own, until the person answers
/// through the owner's channel (`kalends prompts answer`) or the timeout passes; the app can list
/// or answer nothing here. Calls asking the same question while its prompt waits (the same app,
/// service and level, or the same app's picker) share the prompt and its answer: the person is
/// asked once, and an app cannot pile up prompts by asking again.
final class PromptDesk: Sendable {
  /// What the person is asked.
  enum Question: Sendable, Hashable {
    /// An access request.
    case access(ConsentRequest)
    /// The contact picker, shown for an app: the person picks one contact to hand it, or cancels.
    case pick(Client)

    /// The app the question is for.
    var client: Client {
      switch self {
      case .access(let request): request.client
      case .pick(let client): client
      }
    }
  }

  /// A prompt waiting for its answer.
  struct Pending: Sendable {
    /// Its number, unique while the server runs.
    let id: UInt64
    /// What the person is asked.
    let question: Question
    /// What the kernel said about the asking process.
    let evidence: CallerEvidence
    /// When it was asked.
    let asked: Date
    /// How many calls wait for its answer.
    var callers = 1
  }

  /// The person's answer to an access request, with what the person chose: the contacts of a
  /// `limited` answer, the calendars of an `allow` of full access to calendars (`nil`: all).
  struct Answer: Sendable {
    let answer: ConsentAnswer
    var contacts: [ObjectID] = []
    var calendars: [ObjectID]? = nil
    /// The process that gave the answer, as the kernel described it: the person's records of the
    /// decision carry it.
    var answeredBy: CallerEvidence? = nil
  }

  /// The person's reply to a prompt: an answer to an access request, or the contact picked
  /// (`nil`: the picker cancelled).
  enum Reply: Sendable {
    case access(Answer)
    case pick(ObjectID?)

    /// Whether it replies to a contact picker.
    var isPick: Bool {
      if case .pick = self { true } else { false }
    }
  }

  /// What became of a reply.
  enum Outcome: Sendable, Equatable {
    /// The prompt had waited and is answered.
    case answered
    /// No such prompt waits (answered, timed out, never asked).
    case notWaiting
    /// The reply does not answer that prompt's question (a pick for an access request, or the
    /// reverse); the prompt still waits.
    case wrongKind
  }

  private struct State: Sendable {
    var next: UInt64 = 1
    /// The prompts waiting, each with the calls waiting for its answer.
    var waiting: [UInt64: (pending: Pending, callers: [DispatchSemaphore])] = [:]
    /// The replies given, each with the process that gave it and how many of its calls have yet
    /// to take it.
    var replies: [UInt64: (reply: Reply, answerer: CallerEvidence, takers: Int)] = [:]
  }

  private let state = Mutex(State())
  /// How long a prompt waits for the person.
  let timeout: Duration
  /// Called once for each prompt as it opens (not for calls that join one), outside the lock.
  let opened: @Sendable (Pending) -> Void

  init(timeout: Duration, opened: @escaping @Sendable (Pending) -> Void = { _ in }) {
    self.timeout = timeout
    self.opened = opened
  }

  /// The words that tell the person a prompt waits: who asks for what, and how to answer.
  static func announcement(_ pending: Pending) -> (summary: String, body: String) {
    let name = pending.question.client.name
    switch pending.question {
    case .access(let request):
      return (
        "\(name) asks for \(request.service == .contacts ? "" : "\(request.level) access to ")your \(request.service)",
        "\(request.usageDescription) — answer with kalends prompts answer \(pending.id) allow or deny"
      )
    case .pick:
      return (
        "\(name) asks you to pick a contact", "Answer with: kalends prompts answer \(pending.id) pick --contacts ID"
      )
    }
  }

  /// Puts `request` before the person and blocks the calling thread until it is answered or the
  /// timeout passes; `nil` then.
  func ask(_ request: ConsentRequest, from evidence: CallerEvidence) -> Answer? {
    guard let (reply, answerer) = wait(for: .access(request), from: evidence), case .access(var answer) = reply
    else { return nil }
    answer.answeredBy = answerer
    return answer
  }

  /// Shows the person the contact picker for `client` and blocks the calling thread until the
  /// person picks or cancels, or the timeout passes: the contact picked and the process that
  /// picked it, `nil` otherwise.
  func pick(for client: Client, from evidence: CallerEvidence) -> (ObjectID, CallerEvidence)? {
    guard let (reply, answerer) = wait(for: .pick(client), from: evidence), case .pick(let picked?) = reply
    else { return nil }
    return (picked, answerer)
  }

  /// Waits for the reply to `question`: joins its prompt when one waits, else opens one.
  private func wait(for question: Question, from evidence: CallerEvidence) -> (Reply, CallerEvidence)? {
    let semaphore = DispatchSemaphore(value: 0)
    let (id, opened) = state.withLock { state -> (UInt64, Pending?) in
      if let (id, _) = state.waiting.first(where: { $0.value.pending.question == question }) {
        state.waiting[id]?.callers.append(semaphore)
        return (id, nil)
      }
      let id = state.next
      state.next += 1
      let pending = Pending(id: id, question: question, evidence: evidence, asked: Date())
      state.waiting[id] = (pending, [semaphore])
      return (id, pending)
    }
    if let opened { self.opened(opened) }
    let (seconds, attoseconds) = timeout.components
    let nanoseconds = Int(clamping: seconds) * 1_000_000_000 + Int(attoseconds / 1_000_000_000)
    _ = semaphore.wait(timeout: .now() + .nanoseconds(nanoseconds))
    // A reply given before this point counts, even when it came as the wait ended.
    return state.withLock { state in
      if var waiting = state.waiting[id] {
        // No reply in time: this call leaves; the prompt waits on for the calls that came later.
        waiting.callers.removeAll { $0 === semaphore }
        state.waiting[id] = waiting.callers.isEmpty ? nil : waiting
        return nil
      }
      guard var given = state.replies[id] else { return nil }
      given.takers -= 1
      state.replies[id] = given.takers > 0 ? given : nil
      return (given.reply, given.answerer)
    }
  }

  /// The prompts waiting, oldest first.
  var pending: [Pending] {
    state.withLock { state in
      state.waiting.values.map { waiting in
        var pending = waiting.pending
        pending.callers = waiting.callers.count
        return pending
      }
    }.sorted { $0.id < $1.id }
  }

  /// Replies to prompt `id` for the person, through the process `answerer` describes, when it waits
  /// and `reply` answers its question.
  func answer(_ id: UInt64, with reply: Reply, by answerer: CallerEvidence) -> Outcome {
    state.withLock { state in
      guard let (pending, callers) = state.waiting[id] else { return .notWaiting }
      switch (pending.question, reply) {
      case (.access, .access), (.pick, .pick): break
      default: return .wrongKind
      }
      state.waiting[id] = nil
      state.replies[id] = (reply, answerer, callers.count)
      for caller in callers { caller.signal() }
      return .answered
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
struct DeskPrompter: ConsentPrompter, AnswerWitness {
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
      case .terminal(let terminal): terminal.ask(request, from: evidence)
      }
    if let answer { chosen.value.withLock { $0 = answer } }
    return answer?.answer
  }

  func chosenContacts(_ request: ConsentRequest) -> [ObjectID] { chosen.value.withLock { $0.contacts } }

  func answerer() -> CallerEvidence? { chosen.value.withLock { $0.answeredBy } }

  func chosenCalendars(_ request: ConsentRequest) -> [ObjectID]? { chosen.value.withLock { $0.calendars } }
}
