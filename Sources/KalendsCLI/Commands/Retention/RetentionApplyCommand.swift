import ArgumentParser
import Kalends
import KalendsCommandSupport
import KalendsFormats

extension KalendsCommand.Retention {
  /// `kalends retention apply`: erase what the policy says is due, now.
  struct Apply: ParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "apply",
      abstract: "Erase, as the system, the content of items removed longer ago than the policy says.",
      discussion: """
        The person only (a cron job of theirs, or by hand; `kalends serve` does it every hour). One \
        transaction; items already erased are skipped; without a policy it does nothing.
        """)

    @OptionGroup var global: GlobalOptions

    @Option(help: "Output format.") var format: ObjectFormat = .configured

    func run() throws {
      let erasures = try global.openEventStore().privacySettings().applyRetention()
      switch format {
      case .json:
        print(
          JSONValue.array(
            erasures.map { erasure in
              .object([
                ("item", .string(erasure.item.description)),
                ("erasedPositions", .array(erasure.erasedPositions.map { .number(Double($0.rawValue)) })),
                ("record", erasure.record.map { .number(Double($0.rawValue)) } ?? .null),
              ])
            }
          ).rendered())
      case .table:
        if erasures.isEmpty { print("nothing is due for erasure") }
        for erasure in erasures {
          let count = erasure.erasedPositions.count
          print(
            "erased the content of \(count) record\(count == 1 ? "" : "s") of \(erasure.item) (record \(erasure.record!))"
          )
        }
      }
    }
  }
}
