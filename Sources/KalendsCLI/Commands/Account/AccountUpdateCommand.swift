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

    @OptionGroup var password: PasswordOptions

    @Option(help: "Output format.") var format: ObjectFormat = .configured

    func validate() throws {
      guard title != nil || password.given != nil else { throw ValidationError("give --title or a password option") }
    }

    func run() throws {
      let store = try global.openEventStore()
      try store.requireOwner("update accounts")
      var found = try KalendsCommand.Account.named(account, in: store)
      if let title { found = try store.renameAccount(found.id, to: title) }
      if let credentials = password.given {
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
