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
      let store = try global.openEventStore(readOnly: true)
      let tokens = try store.privacySettings().tokens(of: id)
      let times = try Dictionary(
        tokens.map { ($0.id, try $0.creationTime(in: store.store)) }, uniquingKeysWith: { first, _ in first })
      format.write(
        tokens, json: { $0.jsonFields(created: times[$0.id] ?? "") },
        columns: [
          ("TOKEN", \.id), ("CLIENT", \.client), ("LABEL", { $0.label ?? "" }),
          ("CREATED", { times[$0.id] ?? "" }),
        ])
    }
  }
}
