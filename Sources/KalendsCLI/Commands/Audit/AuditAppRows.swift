import Kalends
import KalendsFormats

/// The rows of `kalends audit apps`, which the privacy report shows as its "apps at a glance":
/// per registered app and service, its status now and why, its last read, and its reads and
/// refusals of the seven days before `now`.
enum AuditAppRows {
  static let columns = [
    "client", "app", "service", "status", "reason", "lastRead", "lastCaller", "reads7d", "refusals7d",
  ]

  /// The rows from the state now, every interval of reads (oldest first) and the refusals of the
  /// last seven days (``AuditTimeline/refusals(since:)``).
  static func rows(
    states: [AccessState], uses: [AccessUse], refusals: [String: Int], names: AuditNames, now: Timestamp
  ) -> [[(String, JSONValue)]] {
    let weekAgo = weekBefore(now)
    // Each app and service's intervals, in order, grouped once for every row.
    let byApp = Dictionary(grouping: uses) { "\($0.client)/\($0.service.description)" }
    return states.map { state in
      let key = "\(state.client)/\(state.service.description)"
      let mine = byApp[key] ?? []
      let last = mine.last
      let recent = mine.filter { $0.start >= weekAgo }.reduce(0) { $0 + $1.count }
      let caller: JSONValue = last.map { .string($0.identification == nil ? "declared" : "identified") } ?? .null
      return [
        ("client", .string(state.client)),
        ("app", .text(names.apps[state.client])),
        ("service", .string(state.service.description)),
        ("status", .string(state.status.description)),
        ("reason", state.reason.map { .string($0.description) } ?? .null),
        ("lastRead", last.map { .string($0.start.description) } ?? .null),
        ("lastCaller", caller),
        ("reads7d", .number(Double(recent))),
        ("refusals7d", .number(Double(refusals[key] ?? 0))),
      ]
    }
  }

  /// Seven days before `now`.
  static func weekBefore(_ now: Timestamp) -> Timestamp { Timestamp(rawValue: now.rawValue - 7 * 86_400_000_000) }
}
