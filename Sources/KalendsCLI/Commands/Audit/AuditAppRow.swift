import Kalends
import KalendsFormats

/// One row of `kalends audit apps`, which the privacy report shows as its "apps at a glance": a
/// registered app and service, its status now and why, its last read, and its reads and refusals
/// of the seven days before the audit.
struct AuditAppRow {
  /// The app's access to the service now.
  let state: AccessState
  /// The interval of its last read; `nil`: it never read.
  let lastRead: AccessUse?
  /// Its reads and refused calls of the last seven days.
  let reads7d: Int
  let refusals7d: Int

  static let columns = [
    "client", "app", "service", "status", "reason", "lastRead", "lastCaller", "reads7d", "refusals7d",
  ]

  /// The rows from the state now, every interval of reads (oldest first) and the refusals of the
  /// last seven days (``AuditTimeline/refusals(since:)``).
  static func rows(states: [AccessState], uses: [AccessUse], refusals: [String: Int], now: Timestamp) -> [AuditAppRow] {
    let weekAgo = weekBefore(now)
    // Each app and service's intervals, in order, grouped once for every row.
    let byApp = Dictionary(grouping: uses) { "\($0.client)/\($0.service.description)" }
    return states.map { state in
      let key = "\(state.client)/\(state.service.description)"
      let mine = byApp[key] ?? []
      return AuditAppRow(
        state: state, lastRead: mine.last,
        reads7d: mine.filter { $0.start >= weekAgo }.reduce(0) { $0 + $1.count }, refusals7d: refusals[key] ?? 0)
    }
  }

  /// The row as `audit apps` prints it (docs/cli.md's JSON shape).
  func jsonFields(names: AuditNames) -> [(String, JSONValue)] {
    [
      ("client", .string(state.client)),
      ("app", .text(names.apps[state.client])),
      ("service", .string(state.service.description)),
      ("status", .string(state.status.description)),
      ("reason", state.reason.map { .string($0.description) } ?? .null),
      ("lastRead", lastRead.map { .string($0.start.description) } ?? .null),
      ("lastCaller", lastRead.map { .string($0.caller) } ?? .null),
      ("reads7d", .number(Double(reads7d))),
      ("refusals7d", .number(Double(refusals7d))),
    ]
  }

  /// Seven days before `now`.
  static func weekBefore(_ now: Timestamp) -> Timestamp { Timestamp(rawValue: now.rawValue - 7 * 86_400_000_000) }
}
