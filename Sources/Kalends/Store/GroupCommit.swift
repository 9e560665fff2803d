internal import Dispatch
internal import LMDB
import Synchronization

/// Commits the writes of concurrent writers of one store in one LMDB transaction, each still all
/// or nothing: group commit.
///
/// A durable commit waits for the disk (an `fsync`), and LMDB has one writer at a time, so writers
/// that arrive while a commit is on its way would each wait for a flush of their own. Instead the
/// first writer leads: it takes every write waiting, runs each in a transaction nested in one
/// transaction (``WriteTransaction/nested(_:)``: a write that throws is undone alone and its
/// writer gets its error), commits once, and wakes them; a writer that arrived meanwhile leads the
/// next group. A group of one runs as a plain transaction, so a lone writer pays nothing for it.
/// Within one process only: other processes' writers take LMDB's lock as before.
final class GroupCommit: Sendable {
  /// One writer's write, waiting for a leader (or to become one).
  final class Job: Sendable {
    typealias Body = @Sendable (inout WriteTransaction, inout LogAppender) throws -> Void
    /// The write, until its outcome is set; it runs on the leader's thread while its own writer
    /// waits on `done`. Released before the writer is woken: the writer's closure must not
    /// outlive its call (`withoutActuallyEscaping` checks it).
    private let body: Mutex<Body?>
    let caller: Caller?
    /// Signalled when the outcome is set, or when this job's writer is to lead.
    let done = DispatchSemaphore(value: 0)
    /// `nil` until the write is committed or refused.
    let outcome = Mutex<Result<Void, any Error>?>(nil)

    init(caller: Caller?, run: @escaping Body) {
      self.caller = caller
      body = Mutex(run)
    }

    /// Runs the write in `txn`.
    func run(_ txn: inout WriteTransaction, _ appender: inout LogAppender) throws {
      guard let body = body.withLock({ $0 }) else { return }
      try body(&txn, &appender)
    }

    /// Sets the outcome and lets go of the write.
    func finish(_ result: Result<Void, any Error>) {
      body.withLock { $0 = nil }
      outcome.withLock { $0 = result }
    }
  }

  typealias Caller = (principal: Principal, evidence: CallerEvidence)

  private struct State {
    var waiting: [Job] = []
    var leading = false
  }

  private let state = Mutex(State())

  /// Runs `job` in the next group: leads it when no one leads, else waits for the leader.
  /// `commit` runs one group's jobs in one transaction and sets each one's outcome.
  func submit(_ job: Job, commit: ([Job]) -> Void) throws {
    let leads = state.withLock { state in
      state.waiting.append(job)
      guard !state.leading else { return false }
      state.leading = true
      return true
    }
    if !leads {
      job.done.wait()
      if let outcome = job.outcome.withLock({ $0 }) { return try outcome.get() }
      // Woken without an outcome: this writer leads the next group.
    }
    let group = state.withLock { state in
      defer { state.waiting.removeAll() }
      return state.waiting
    }
    commit(group)
    let next = state.withLock { state -> Job? in
      guard let first = state.waiting.first else {
        state.leading = false
        return nil
      }
      return first
    }
    for member in group where member !== job { member.done.signal() }
    next?.done.signal()
    guard let outcome = job.outcome.withLock({ $0 }) else {
      throw StoreError.invalidInput("a group commit ended without this write's outcome")
    }
    try outcome.get()
  }
}

/// Where a write's result waits for its writer: set by the leader's thread before the writer's
/// semaphore is signalled, read by the writer after it returns.
final class WriteResult<R>: @unchecked Sendable {
  var value: R?
}
