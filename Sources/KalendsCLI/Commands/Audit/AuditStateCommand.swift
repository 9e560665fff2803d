import ArgumentParser
import Kalends
import KalendsCommandSupport
import KalendsFormats

extension KalendsCommand.Audit {
  /// `kalends audit state`: every status at an instant.
  struct State: ParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "state", abstract: "The status of every app and service at an instant, replayed from the log.")

    @OptionGroup var global: GlobalOptions

    @OptionGroup var instant: AuditInstant

    @Option(help: "Output format: table, json or csv.") var format: ReportFormat = .configured

    func run() throws {
      let audit = PrivacyAudit(store: try global.openStore(readOnly: true, for: "read the audit"))
      format.write(
        try audit.state(at: try instant.value).map(\.jsonFields),
        columns: ["client", "service", "status", "decision", "reason", "chosen"])
    }
  }
}

/// `--at` of the audit's state and who-can.
struct AuditInstant: ParsableArguments {
  @Option(
    parsing: .unconditional,
    help: ArgumentHelp(
      "The instant (default: now, which is the head of the log: every record, whatever its writer's clock said).",
      valueName: "date"))
  var at: String?

  /// The instant asked for; `nil` for the head of the log (no `--at`, or `now`).
  var value: Timestamp? {
    get throws(CLIError) { try AuditTime.instant(at) }
  }
}
