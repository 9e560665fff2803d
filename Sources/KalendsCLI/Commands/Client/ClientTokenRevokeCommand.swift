import ArgumentParser
import Kalends
import KalendsCommandSupport
import KalendsFormats

extension KalendsCommand.Client.Token {
  /// `kalends client token revoke`: ends a token.
  struct Revoke: ParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "revoke", abstract: "Revoke an app's token: the server refuses it from its next request.")

    @OptionGroup var global: GlobalOptions

    @Argument(help: "The app's identifier.") var id: String

    @Argument(help: "The token's id (client token list).") var token: String

    @Option(help: "Output format.") var format: ObjectFormat = .configured

    func run() throws {
      try global.requireOwner("revoke app tokens")
      let header = try global.openEventStore().privacySettings().revokeToken(token, of: id)
      format.write([
        ("id", .string(token)), ("client", .string(id)), ("revoked", .number(Int(header.position.rawValue))),
      ])
    }
  }
}
