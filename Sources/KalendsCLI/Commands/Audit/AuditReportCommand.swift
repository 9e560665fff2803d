import ArgumentParser
import Foundation
import Kalends
import KalendsCommandSupport
import KalendsFormats

extension KalendsCommand.Audit {
  /// `kalends audit report`: the privacy audit as one HTML page a person can read, print and check.
  struct Report: ParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "report",
      abstract: "Write the privacy report: one HTML file that opens from disk and checks its own proofs.",
      discussion: """
        The page holds the apps at a glance (as kalends audit apps), a timeline per app and service \
        (decisions, requests, refusals, reads), the decisions of the window with the proof of each, what \
        apps read, the calendars and contacts chosen for them, the policies in force and the callers the \
        server could not identify. It fetches nothing; its script checks, with the browser's Web Crypto, \
        the latest kept checkpoint's signature by --key (and cosignatures by --witness) and every listed \
        decision's record and inclusion path, and marks each proven or not. Without --key the page can \
        be given the key by its reader. At most the latest 2,000 decisions of the window are listed.
        """)

    @OptionGroup var global: GlobalOptions

    @Option(help: ArgumentHelp("Write the report to this file.", valueName: "file.html")) var out: String

    @OptionGroup var window: AuditWindow

    @Option(help: ArgumentHelp("The log's verifier key the page checks the checkpoint with.", valueName: "vkey"))
    var key: String?

    @OptionGroup var witnesses: WitnessPolicy

    func run() throws {
      let store = try global.openStore(readOnly: true, for: "read the audit")
      let (since, until) = try window.bounds
      let logKey = try key.map { text throws in try NoteVerifier(text) }
      if let logKey, logKey.isCosigner {
        throw CLIError(
          message: "--key must be the log's signing key (type 0x01), not a witness's", status: .invalidInput)
      }
      let witnessKeys = try witnesses.keys()
      let report = try PrivacyReport(
        store: store, storePath: global.storePath, since: since, until: until, logKey: logKey,
        witnesses: witnessKeys, quorum: witnesses.quorum ?? witnessKeys.count)
      let size = try ReportPage.write(report, to: out)
      print(
        "\(out): \(report.decisions.count) decisions (\(report.proofs.count) with proofs), \(report.apps.count) "
          + "app rows, \(size) bytes")
    }
  }
}
