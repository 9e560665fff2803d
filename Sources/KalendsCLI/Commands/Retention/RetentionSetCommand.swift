import ArgumentParser
import Kalends
import KalendsCommandSupport
import KalendsFormats

extension KalendsCommand.Retention {
  /// `kalends retention set --removed-after PERIOD|off`.
  struct Set: ParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "set",
      abstract: "Erase the content of items removed longer ago than a period (a recorded decision).",
      discussion: """
        The person only. Writes a retentionSet record, then applies the policy at once (as \
        `retention apply` does); `kalends serve` applies it every hour. PERIOD is a number and a unit: \
        s, m, h, d or w (30d); off turns it off.
        """)

    @OptionGroup var global: GlobalOptions

    @Option(help: ArgumentHelp("The period, e.g. 30d, or off.", valueName: "period"))
    var removedAfter: RetentionPeriod

    @Option(help: "Output format.") var format: ObjectFormat = .configured

    func run() throws {
      let store = try global.openEventStore()
      let policy = try store.privacySettings().setRetention(removedAfterSeconds: removedAfter.seconds)
      let erasures = try store.privacySettings().applyRetention()
      switch format {
      case .json:
        print(
          JSONValue.object([
            ("policy", retentionJSON(policy)), ("erased", .array(erasures.map { .string($0.item.description) })),
          ]).rendered())
      case .table:
        print(retentionText(policy))
        for erasure in erasures { print("erased the content of \(erasure.item) (record \(erasure.record!))") }
      }
    }
  }
}
