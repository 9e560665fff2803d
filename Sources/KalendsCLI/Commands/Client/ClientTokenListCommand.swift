import ArgumentParser
import Kalends
import KalendsCommandSupport
import KalendsFormats

extension KalendsCommand.Client.Token {
  /// `kalends client token list`: the live tokens.
  struct List: ParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "list", abstract: "List the live tokens, of one app or of all (never their secrets).")

    @OptionGroup var global: GlobalOptions

    @Argument(help: "The app's identifier (default: every app).") var id: String?

    @Option(help: "Output format.") var format: ObjectFormat = .configured

    func run() throws {
      try global.requireOwner("list app tokens")
      let tokens = try global.openEventStore(readOnly: true).tokens(of: id)
      format.write(
        tokens, json: \.jsonFields,
        columns: [
          ("TOKEN", \.id), ("CLIENT", \.client), ("LABEL", { $0.label ?? "" }),
          ("CREATED", { String($0.created.rawValue) }),
        ])
    }
  }
}
