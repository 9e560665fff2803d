import ArgumentParser
import Kalends
import KalendsCommandSupport
import KalendsFormats

extension KalendsCommand.Group {
  /// `kalends group list`: every group.
  struct List: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "list", abstract: "List the groups by name.")

    @OptionGroup var global: GlobalOptions
    @Option(help: "Output format.") var format: ObjectFormat = .configured

    func run() throws {
      format.write(
        try global.openEventStore(readOnly: true).contactStore.groups(), json: \.jsonFields,
        columns: [("ID", \.id.description), ("NAME", \.name)])
    }
  }
}
