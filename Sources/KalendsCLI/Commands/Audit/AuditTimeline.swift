import Kalends
import KalendsFormats

/// The privacy timeline as `kalends audit history` prints it — the log's privacy records and the
/// refusals counted but not yet in it — shared by the demo and the report so that all three
/// show the same rows and the same counts.
struct AuditTimeline {
  /// The log's entries of the window, oldest first.
  let entries: [AuditEntry]
  /// The refusals of the window counted and not yet appended (the latest minutes').
  let pending: [PendingRefusal]

  init(
    _ audit: PrivacyAudit, client: String? = nil, service: Service? = nil, since: Timestamp? = nil,
    until: Timestamp? = nil
  ) throws {
    entries = try audit.history(client: client, service: service, since: since, until: until)
    pending = try audit.pendingRefusals(client: client).filter { refusal in
      let time = refusal.time
      return (service == nil || refusal.service == service) && time >= (since ?? time)
        && time < (until ?? Timestamp(rawValue: .max))
    }
  }

  /// The columns of the table and CSV.
  static let columns = [
    "position", "time", "app", "what", "caller", "actor", "kind", "client", "service", "level", "previousStatus",
    "status", "reason", "prompted", "operation", "count", "pending",
  ]

  /// One row per entry, then per pending refusal: the JSON shape of docs/cli.md, with `app` (the
  /// registered name) and `what` (the sentence); a table's `caller` says `identified` or
  /// `declared` where the JSON holds the evidence.
  ///
  /// With a `zone`, a table's `time` is when the entry happened (`AuditEntry.occurred`) in that
  /// zone, as people read the time; the JSON keeps its instants in UTC.
  func rows(names: AuditNames, table: Bool, zone: ZoneRules? = nil) -> [[(String, JSONValue)]] {
    let logged = entries.map { entry -> [(String, JSONValue)] in
      var fields = entry.jsonFields
      if table { fields = fields.filter { $0.0 != "caller" } + [("caller", .string(entry.caller))] }
      if table, let zone {
        let time = Self.text(entry.occurred, in: zone)
        fields = fields.map { $0.0 == "time" ? ("time", .string(time)) : $0 }
      }
      return fields + [("app", .text(names.apps[entry.client])), ("what", .string(entry.sentence(names: names)))]
    }
    let counted = pending.map { refusal -> [(String, JSONValue)] in
      refusal.jsonFields + [
        ("app", .text(names.apps[refusal.client])),
        ("what", .string(refusal.sentence + " (counted, not yet in the log)")),
      ]
    }
    return logged + counted
  }

  /// `instant` as a wall-clock time of `zone` with its offset (to the second).
  static func text(_ instant: Timestamp, in zone: ZoneRules) -> String {
    let seconds = instant.rawValue.floorDividedWithRemainder(by: 1_000_000).quotient
    guard let local = zone.localDateTime(atUTC: seconds) else { return instant.description }
    return RFC3339Time.text(for: local, in: zone)
  }

  /// How many calls `client` had refused (for `service`, or owner-only actions with `nil`), logged
  /// and pending, at or after `since`.
  func refusals(since: Timestamp) -> [String: Int] {
    var counts: [String: Int] = [:]
    for entry in entries where entry.kind == .accessAttemptRefused && entry.timestamp >= since {
      counts["\(entry.client)/\(entry.service?.description ?? "")", default: 0] += entry.count ?? 1
    }
    for refusal in pending where refusal.time >= since {
      counts["\(refusal.client)/\(refusal.service?.description ?? "")", default: 0] += refusal.count
    }
    return counts
  }
}
