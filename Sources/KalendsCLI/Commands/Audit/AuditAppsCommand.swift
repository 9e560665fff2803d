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

    @Option(help: "Output format: table, json or csv.") var format: ReportFormat = .configured

    func run() throws {
      let store = try global.openStore(readOnly: true, for: "read the audit")
      let audit = PrivacyAudit(store: store)
      let now = Timestamp.now()
      let weekAgo = AuditAppRow.weekBefore(now)
      let rows = AuditAppRow.rows(
        states: try audit.state(), uses: try audit.uses(),
        refusals: try AuditTimeline(audit, since: weekAgo).refusals(since: weekAgo), now: now)
      if rows.isEmpty && format == .table {
        print("no app is registered — `kalends client register` registers one")
        return
      }
      let names = try AuditNames(EventStore(store: store))
      format.write(rows.map { $0.jsonFields(names: names) }, columns: AuditAppRow.columns)
    }
  }
}
