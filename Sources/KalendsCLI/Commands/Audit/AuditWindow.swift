import ArgumentParser
import Kalends
import KalendsCommandSupport

/// `--since DATE --until DATE` of the audit commands that list what happened in a window
/// (`history`, `uses`, `export`), read as ``AuditTime`` reads them.
struct AuditWindow: ParsableArguments {
  @Option(
    parsing: .unconditional,
    help: ArgumentHelp("From this instant, date (UTC) or span back (30d, 12h), inclusive.", valueName: "date"))
  var since: String?

  @Option(
    parsing: .unconditional,
    help: ArgumentHelp("Until this instant or date (UTC), exclusive.", valueName: "date"))
  var until: String?

  /// The window's bounds; `nil` where it is open.
  var bounds: (since: Timestamp?, until: Timestamp?) {
    get throws(CLIError) {
      (
        try since.map { text throws(CLIError) in try AuditTime.parse(text, option: "--since") },
        try until.map { text throws(CLIError) in try AuditTime.parse(text, option: "--until") }
      )
    }
  }
}
