import ArgumentParser
import Kalends
import KalendsCommandSupport
import KalendsFormats
import KalendsSync

extension KalendsCommand.Account {
  /// `kalends account update ACCOUNT`.
  struct Update: ParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "update",
      abstract: "Rename an account, or change where its password comes from.",
      discussion: """
        --title renames it (a sourceSaved record; its calendars' source takes the name). A password \
        option replaces STORE/accounts/ID.credentials (mode 0600); nothing of it enters the log.
        """)

    @OptionGroup var global: GlobalOptions

    @Argument(help: "The account, by name or id.") var account: String

    @Option(help: "The account's new name.") var title: String?

    @Option(help: "A command that prints the password (its first line).") var passwordCommand: String?

    @Option(help: "A file (this user's, mode 0600) whose first line is the password.") var passwordFile: String?

    @Option(help: "A command that prints an OAuth 2.0 access token, sent as a Bearer token.")
    var tokenCommand: String?

    @Option(help: "Output format.") var format: ObjectFormat = .configured

    func validate() throws {
      let given = [passwordCommand, passwordFile, tokenCommand].compactMap { $0 }.count
      guard given <= 1 else {
        throw ValidationError("give at most one of --password-command, --password-file and --token-command")
      }
      guard title != nil || given == 1 else { throw ValidationError("give --title or a password option") }
    }

    func run() throws {
      let store = try global.openEventStore()
      try store.requireOwner("update accounts")
      var found = try KalendsCommand.Account.named(account, in: store)
      if let title { found = try store.renameAccount(found.id, to: title) }
      let credentials: AccountCredentials? =
        passwordCommand.map { .command($0) } ?? passwordFile.map { .file($0) } ?? tokenCommand.map { .tokenCommand($0) }
      if let credentials {
        do {
          try credentials.save(to: AccountCredentials.path(forAccount: found.id, store: global.storePath))
        } catch {
          throw KalendsCommand.Account.failure(error)
        }
      }
      switch format {
      case .json:
        print(
          JSONValue.object(KalendsCommand.Account.fields(found, calendars: try store.calendars(ofAccount: found.id)))
            .rendered())
      case .table:
        print("\(found.id)  \(TerminalText.escaped(found.title))")
      }
    }
  }
}
