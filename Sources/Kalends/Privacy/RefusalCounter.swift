/// Coalesces a session's refused calls so a loop of them cannot flood the log: the first refusal
/// per service and minute is recorded at once with count 1; later ones in the same minute are
/// counted and recorded as one record (with their count) at the next refusal in a later minute or
/// when the session ends.
struct RefusalCounter: Sendable {
  struct Pending: Sendable {
    var minute: Int64
    var status: AuthorizationStatus
    var operation: String
    var count: Int
  }

  private var pending: [Service: Pending] = [:]

  /// Counts a refusal; returns the records to write now: `(minute, status, operation, count)`.
  mutating func refuse(
    _ service: Service, status: AuthorizationStatus, operation: String, minute: Int64
  ) -> [Pending] {
    if var current = pending[service], current.minute == minute {
      current.count += 1
      current.status = status
      current.operation = operation
      pending[service] = current
      return []
    }
    var flush: [Pending] = []
    if let previous = pending[service], previous.count > 0 { flush.append(previous) }
    flush.append(Pending(minute: minute, status: status, operation: operation, count: 1))
    pending[service] = Pending(minute: minute, status: status, operation: operation, count: 0)
    return flush
  }

  /// Everything counted but not yet recorded, emptying the counter.
  mutating func drain() -> [(Service, Pending)] {
    let result = pending.compactMap { service, entry in entry.count > 0 ? (service, entry) : nil }
    pending = [:]
    return result
  }
}
