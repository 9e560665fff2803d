import ArgumentParser
import Kalends
import KalendsCommandSupport
import KalendsFormats

extension KalendsCommand.Client {
  /// `kalends client token`: the tokens by which apps reach the store server over TCP.
  struct Token: ParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "token",
      abstract: "Create, list and revoke the tokens by which apps reach the store server over TCP.",
      discussion: """
        Over TCP the kernel cannot say which process is calling, so an app presents a token the \
        person created for it (Authorization: Bearer TOKEN). The secret is shown once; the store \
        keeps its SHA-256 and its id (the digest's first 8 bytes in hex). Creating and revoking are \
        recorded; a revoked token stops working at the server's next request.
        """,
      subcommands: [Create.self, List.self, Revoke.self])
  }
}

extension ClientToken {
  /// When it was made: the time of its record (RFC 3339), read from `store`.
  func creationTime(in store: Store) throws -> String { try store.record(at: created).timestamp.description }

  /// The token as `client token list` and `create` show it in JSON: `created` is when it was made
  /// (``creationTime(in:)``), `record` the position of that record.
  func jsonFields(created time: String) -> [(String, JSONValue)] {
    [
      ("id", .string(id)), ("client", .string(client)), ("label", .text(label)), ("created", .string(time)),
      ("record", .number(Int(created.rawValue))),
    ]
  }
}
