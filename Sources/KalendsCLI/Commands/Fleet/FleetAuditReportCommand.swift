import ArgumentParser
import Kalends
import KalendsCommandSupport
import KalendsFleet
import KalendsFormats

extension KalendsCommand.Fleet.Audit {
  /// `kalends fleet audit report`: each app across the fleet, or the fleet's page for a browser.
  struct Report: ParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "report",
      abstract: "Each app across the fleet: in how many stores it is registered and may use each service.",
      discussion: """
        A row per app: the stores it is registered in, and for each service the stores where it could \
        use it at the instant (full, write-only or limited access) and those where it was denied. \
        The stores line counts the stores held and the flagged ones. With --out, writes instead one \
        self-contained HTML page (no script, no network) a browser opens from disk: the stores and \
        their standing, the apps across the fleet, and every app's access store by store with its \
        decision, why, and the calendars and contacts it was given, named.
        """)

    @OptionGroup var options: FleetAuditOptions

    @OptionGroup var instant: AuditInstant

    @Option(help: "Output format: table, json or csv.") var format: ReportFormat = .configured

    @Option(help: ArgumentHelp("Write the report as a page for a browser to this file.", valueName: "file.html"))
    var out: String?

    func run() throws {
      let report = try FleetReport(
        audit: options.audit(), directory: options.dir, at: try instant.value, store: options.storeID())
      if let out {
        let size = try FleetReportPage.write(report, to: out)
        print(
          "\(out): \(report.stores.count) stores, \(report.apps.count) apps, \(report.states.count) access rows, "
            + "\(size) bytes")
        return
      }
      if format == .json {
        print(
          JSONValue.object([
            ("stores", .array(report.stores.map { .object($0.jsonFields) })),
            ("apps", .array(report.appRows.map { .object($0) })),
          ]).rendered())
        return
      }
      format.write(report.appRows, columns: FleetReport.appColumns)
      if format == .table {
        print(
          "\(report.stores.count) stores held, \(report.stores.filter(\.flagged).count) flagged — "
            + "kalends fleet audit stores --dir \(options.dir) lists them")
      }
    }
  }
}
