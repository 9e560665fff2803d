import Kalends

/// The messages waiting for a sender, in the order they fell due (``PushDelivery``): each taken
/// from the front, or the first for a given push service, without moving the others — a thousand
/// registrations due at once are a thousand takes, not a thousand shifts of the rest — and a
/// waiting registration's message found by its registration to fold a later change into it.
struct PushQueue {
  /// The messages, with holes where one was taken out of order; those before `head` are taken.
  private var jobs: [PushDelivery.Job?] = []
  private var head = 0
  /// Where each waiting registration's message is.
  private var positions: [ObjectID: Int] = [:]

  var isEmpty: Bool { positions.isEmpty }

  /// Adds `job` at the end; when one for its registration waits, folds it into that one instead.
  mutating func add(_ job: PushDelivery.Job) {
    let id = job.registration.id
    if let position = positions[id], let waiting = jobs[position] {
      jobs[position] = job.folding(waiting)
      return
    }
    positions[id] = jobs.count
    jobs.append(job)
  }

  /// Takes the first message for `origin` (a push service), or the first of all when `nil`.
  mutating func take(for origin: String?) -> PushDelivery.Job? {
    var position = head
    while position < jobs.count {
      if let job = jobs[position], origin == nil || job.target.origin == origin {
        jobs[position] = nil
        positions[job.registration.id] = nil
        advance()
        return job
      }
      position += 1
    }
    return nil
  }

  /// Moves `head` past the taken messages, and drops them once they are most of the array.
  private mutating func advance() {
    while head < jobs.count, jobs[head] == nil { head += 1 }
    guard head > 64, head * 2 > jobs.count else { return }
    jobs.removeFirst(head)
    head = 0
    for (position, job) in jobs.enumerated() {
      if let job { positions[job.registration.id] = position }
    }
  }
}
