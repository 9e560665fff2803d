import ArgumentParser
import Kalends
import KalendsCommandSupport
import KalendsFormats
import KalendsSync

extension KalendsCommand {
  /// `kalends account`: the person's CalDAV and CardDAV accounts.
  struct Account: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "account",
      abstract: "CalDAV accounts synced into the store (docs/accounts.md): add, list, show, sync, remove.",
      subcommands: [Add.self, List.self, Show.self, Sync.self, Remove.self, Probe.self])
  }
}

extension KalendsCommand.Account {
  /// The account `text` names: its id, else its title (exactly, then case ignored, then the one
  /// it begins), else the one id it begins (four hex digits or more).
  static func named(_ text: String, in store: EventStore) throws -> CalendarAccount {
    let accounts = try store.accounts()
    if let id = ObjectID(text) {
      guard let found = accounts.first(where: { $0.id == id }) else { throw StoreError.calendar(.accountNotFound(id)) }
      return found
    }
    let folded = text.lowercased()
    let found = try EventStore.uniqueMatch(
      text, option: "ACCOUNT", among: accounts,
      steps: [
        ("titled", { $0.title == text }), ("titled", { $0.title.lowercased() == folded }),
        ("whose title begins with", { $0.title.lowercased().hasPrefix(folded) }),
        (
          "whose id begins with",
          { text.count >= 4 && text.allSatisfy(\.isHexDigit) && $0.id.description.lowercased().hasPrefix(folded) }
        ),
      ], noun: "accounts", describe: { "\(TerminalText.escaped($0.title)) (\($0.id))" },
      hint: "give more of the name or of the id")
    guard let found else {
      throw CLIError(
        message: "no account is named \"\(TerminalText.escaped(text))\" — kalends account list shows them",
        status: .notFound)
    }
    return found
  }

  /// An account's failure as the command line's error.
  static func failure(_ error: AccountError) -> CLIError {
    CLIError(message: error.description, status: ExitStatus(error.category))
  }

  /// The JSON of `account` with its calendars.
  static func fields(_ account: CalendarAccount, calendars: [EventCalendar]) -> [(String, JSONValue)] {
    [
      ("id", .string(account.id.description)), ("title", .string(account.title)),
      ("principal", .string(account.principal)), ("user", .string(account.user)),
      ("calendarHome", account.calendarHome.map { .string($0) } ?? .null),
      (
        "calendars",
        .array(
          calendars.map { calendar in
            .object(
              calendar.jsonFields + [
                ("url", .string(calendar.remote?.url ?? "")),
                ("synced", .bool(calendar.remote?.syncToken != nil || calendar.remote?.ctag != nil)),
                (
                  "quarantined",
                  .array(
                    (calendar.remote?.quarantined ?? []).map {
                      .object([("name", .string($0.name)), ("reason", .string($0.reason))])
                    })
                ),
              ])
          })
      ),
    ]
  }
}

/// The options that say where an account's password comes from.
struct PasswordOptions: ParsableArguments {
  @Option(help: "A command that prints the password (its first line): `pass show fastmail`.")
  var passwordCommand: String?

  @Option(help: "A file (this user's, mode 0600) whose first line is the password.") var passwordFile: String?

  func validate() throws {
    if (passwordCommand == nil) == (passwordFile == nil) {
      throw ValidationError("give one of --password-command and --password-file")
    }
  }

  var credentials: AccountCredentials { passwordCommand.map { .command($0) } ?? .file(passwordFile ?? "") }
}
