import ArgumentParser
import Foundation
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
      subcommands: [Add.self, List.self, Show.self, Sync.self, Update.self, Remove.self, Probe.self])
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

extension KalendsCommand.Account {
  /// An account with its calendars and address books, its sync status and what they quarantined.
  struct Status {
    let account: CalendarAccount
    let calendars: [EventCalendar]
    let addressBooks: [ContactContainer]
    let sync: AccountSyncStatus
    let quarantined: Int
    /// Local changes waiting to go out, by calendar or address book.
    let outgoing: [ObjectID: Int]
    /// The conflicts recorded, with the title and id of their calendar or address book, oldest
    /// first.
    let conflicts: [(collection: (title: String, id: ObjectID), conflict: RemoteConflict)]

    /// The status of `account`, whose calendars are `calendars`, in `store` at `storePath`.
    init(account: CalendarAccount, calendars: [EventCalendar], store: EventStore, storePath: String) throws {
      self.account = account
      self.calendars = calendars
      addressBooks = try store.contactStore.addressBooks(ofAccount: account.id)
      sync = AccountSyncStatus.load(from: AccountSyncStatus.path(forAccount: account.id, store: storePath))
      quarantined =
        calendars.reduce(0) { $0 + ($1.remote?.quarantined.count ?? 0) }
        + addressBooks.reduce(0) { $0 + ($1.remote?.quarantined.count ?? 0) }
      outgoing = try store.outgoingCounts(inCollections: calendars.map(\.id) + addressBooks.map(\.id))
      let calendarConflicts = try calendars.flatMap { calendar in
        try store.remoteConflicts(inCalendar: calendar.id).map { ((calendar.title, calendar.id), $0) }
      }
      let bookConflicts = try addressBooks.flatMap { book in
        try store.contactStore.remoteConflicts(inContainer: book.id).map { ((book.title, book.id), $0) }
      }
      conflicts = (calendarConflicts + bookConflicts).sorted { $0.1.position < $1.1.position }
    }

    /// Every local change waiting to go out.
    var outgoingTotal: Int { outgoing.values.reduce(0, +) }
  }

  /// Every account of `store` with its status.
  static func statuses(_ store: EventStore, storePath: String) throws -> [Status] {
    try store.accounts().map { account in
      try Status(
        account: account, calendars: try store.calendars(ofAccount: account.id), store: store, storePath: storePath)
    }
  }

  /// A status in JSON.
  static func statusFields(_ status: Status) -> [(String, JSONValue)] {
    [
      ("id", .string(status.account.id.description)), ("title", .string(status.account.title)),
      ("lastSync", status.sync.lastSuccess.map { .string(Self.time($0)) } ?? .null),
      ("lastAttempt", status.sync.lastAttempt.map { .string(Self.time($0)) } ?? .null),
      ("lastError", status.sync.lastError.map { .string($0) } ?? .null),
      ("quarantined", .number(Double(status.quarantined))),
      ("outgoing", .number(Double(status.outgoingTotal))),
      ("conflicts", .number(Double(status.conflicts.count))),
      ("nextAttempt", status.sync.nextAttempt.map { .string(Self.time($0)) } ?? .null),
    ]
  }

  /// A status in words: "synced at …; 2 quarantined", "the last sync failed at …: why".
  static func statusWords(_ status: Status) -> String {
    var words: String
    if let error = status.sync.lastError, let attempt = status.sync.lastAttempt {
      words = "the last sync failed at \(time(attempt)): \(TerminalText.escaped(error))"
      if let success = status.sync.lastSuccess { words += "; synced at \(time(success))" }
    } else if let success = status.sync.lastSuccess {
      words = "synced at \(time(success))"
    } else {
      words = "never synced"
    }
    if status.outgoingTotal > 0 { words += "; \(status.outgoingTotal) waiting to go out" }
    if let next = status.sync.nextAttempt, status.sync.lastError != nil { words += "; next try at \(time(next))" }
    if !status.conflicts.isEmpty { words += "; \(status.conflicts.count) conflicts (kalends account show)" }
    return words + (status.quarantined > 0 ? "; \(status.quarantined) quarantined (kalends account show)" : "")
  }

  /// `2026-11-29T16:22:31Z`.
  static func time(_ date: Date) -> String {
    ISO8601DateFormatter().string(from: date)
  }
}

/// The options that say where an account's password comes from.
struct PasswordOptions: ParsableArguments {
  @Option(help: "A command that prints the password (its first line): `pass show fastmail`.")
  var passwordCommand: String?

  @Option(help: "A file (this user's, mode 0600) whose first line is the password.") var passwordFile: String?

  @Option(help: "A command that prints an OAuth 2.0 access token, sent as a Bearer token (Google).")
  var tokenCommand: String?

  func validate() throws {
    guard [passwordCommand, passwordFile, tokenCommand].compactMap({ $0 }).count <= 1 else {
      throw ValidationError("give at most one of --password-command, --password-file and --token-command")
    }
  }

  /// Where the password comes from, as given; `nil` when no option was.
  var given: AccountCredentials? {
    if let passwordCommand { return .command(passwordCommand) }
    if let tokenCommand { return .tokenCommand(tokenCommand) }
    return passwordFile.map { .file($0) }
  }

  /// Where the password comes from, for a command that needs one: a usage error when none was given.
  func required() throws -> AccountCredentials {
    guard let given else {
      throw ValidationError("give one of --password-command, --password-file and --token-command")
    }
    return given
  }
}
