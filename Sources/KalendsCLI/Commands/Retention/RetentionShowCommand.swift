import ArgumentParser
import Kalends
import KalendsCommandSupport
import KalendsFormats

extension KalendsCommand.Retention {
  /// `kalends retention show`.
  struct Show: ParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "show", abstract: "Show the retention policy in force.")

    @OptionGroup var global: GlobalOptions

    @Option(help: "Output format.") var format: ObjectFormat = .configured

    func run() throws {
      let policy = try global.openEventStore(readOnly: true).retentionPolicy()
      switch format {
      case .json: print(retentionJSON(policy).rendered())
      case .table: print(retentionText(policy))
      }
    }
  }
}
