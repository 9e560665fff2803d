import ArgumentParser
import Foundation
import Kalends
import KalendsCommandSupport
import KalendsFormats

extension KalendsCommand.Audit {
  /// `kalends audit apps`: each app's access and what it did with it, at a glance.
  struct Apps: ParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "apps",
      abstract: "Each app and service: its status now, its last read, its reads and refusals of the last 7 days.",
      discussion: """
        One row per registered app and service. reads7d counts the reads recorded in the last seven \
        days (`kalends audit uses` lists them), refusals7d the calls refused (`kalends audit history`). \
        lastCaller says whether the app's last read came through the store server, which identified \
        it, or from a process that only declared itself.
        """)

    @OptionGroup var global: GlobalOptions

    @Option(help: "Output format: table, json or csv.") var format: ReportFormat = .table

    func run() throws {
      let store = try global.openStore(readOnly: true, for: "read the audit")
      let audit = PrivacyAudit(store: store)
      let names = try AuditNames(EventStore(store: store))
      let weekAgo = Timestamp(rawValue: (Int64(Date().timeIntervalSince1970) - 7 * 86_400) * 1_000_000)
      // Each app and service's intervals, in order, grouped once for every row.
      let uses = Dictionary(grouping: try audit.uses()) { "\($0.client)/\($0.service.description)" }
      var refusals: [String: Int] = [:]
      for entry in try audit.history(since: weekAgo) where entry.kind == .accessAttemptRefused {
        refusals["\(entry.client)/\(entry.service?.description ?? "")", default: 0] += entry.count ?? 1
      }
      for pending in try audit.pendingRefusals() where pending.time >= weekAgo {
        refusals["\(pending.client)/\(pending.service?.description ?? "")", default: 0] += pending.count
      }
      let rows = try audit.state().map { state -> [(String, JSONValue)] in
        let mine = uses["\(state.client)/\(state.service.description)"] ?? []
        let last = mine.last
        let recent = mine.filter { $0.start >= weekAgo }.reduce(0) { $0 + $1.count }
        let caller: JSONValue =
          last.map { .string($0.identification == nil ? "declared" : "identified") } ?? .null
        return [
          ("client", .string(state.client)),
          ("app", .text(names.apps[state.client])),
          ("service", .string(state.service.description)),
          ("status", .string(state.status.description)),
          ("reason", state.reason.map { .string($0.description) } ?? .null),
          ("lastRead", last.map { .string($0.start.description) } ?? .null),
          ("lastCaller", caller),
          ("reads7d", .number(Double(recent))),
          ("refusals7d", .number(Double(refusals["\(state.client)/\(state.service.description)"] ?? 0))),
        ]
      }
      if rows.isEmpty && format == .table {
        print("no app is registered — `kalends client register` registers one")
        return
      }
      format.write(
        rows,
        columns: [
          "client", "app", "service", "status", "reason", "lastRead", "lastCaller", "reads7d", "refusals7d",
        ])
    }
  }
}
