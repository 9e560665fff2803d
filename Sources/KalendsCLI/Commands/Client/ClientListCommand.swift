import ArgumentParser
import Kalends
import KalendsCommandSupport
import KalendsFormats

extension KalendsCommand.Client {
  /// `kalends client list`: the registered apps.
  struct List: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "list", abstract: "List the registered apps.")

    @OptionGroup var global: GlobalOptions

    @Option(help: "Output format.") var format: ObjectFormat = .configured

    func run() throws {
      try global.requireOwner("list the registered apps")
      let clients = try global.openEventStore(readOnly: true).clients()
      format.write(
        clients, json: \.jsonFields,
        columns: [
          ("ID", \.id), ("NAME", \.name),
          ("USAGE", { $0.usageDescriptions.keys.map(\.description).sorted().joined(separator: ", ") }),
        ])
    }
  }
}
