import ArgumentParser
import Kalends
import KalendsCommandSupport
import KalendsFormats
import KalendsSync

extension KalendsCommand.Account {
  /// `kalends account list`.
  struct List: ParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "list", abstract: "List accounts with their users and calendars.")

    @OptionGroup var global: GlobalOptions

    @Option(help: "Output format.") var format: ObjectFormat = .configured

    func run() throws {
      let store = try global.openEventStore(readOnly: true)
      format.write(
        try KalendsCommand.Account.statuses(store, storePath: global.storePath),
        json: {
          KalendsCommand.Account.fields($0.account, calendars: $0.calendars)
            + [("sync", .object(KalendsCommand.Account.statusFields($0)))]
        },
        columns: [
          ("ID", { $0.account.id.description }), ("TITLE", { TerminalText.escaped($0.account.title) }),
          ("USER", { TerminalText.escaped($0.account.user) }), ("CALENDARS", { String($0.calendars.count) }),
          ("SYNC", { KalendsCommand.Account.statusWords($0) }),
        ])
    }
  }

  /// `kalends account show ACCOUNT`.
  struct Show: ParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "show", abstract: "Show an account: where it is, its calendars and what a sync could not take.")

    @OptionGroup var global: GlobalOptions

    @Argument(help: "The account, by name or id.") var account: String

    @Option(help: "Output format.") var format: ObjectFormat = .configured

    func run() throws {
      let store = try global.openEventStore(readOnly: true)
      let account = try KalendsCommand.Account.named(account, in: store)
      let calendars = try store.calendars(ofAccount: account.id)
      let status = try KalendsCommand.Account.Status(
        account: account, calendars: calendars, store: store, storePath: global.storePath)
      let books = status.addressBooks
      switch format {
      case .json:
        print(
          JSONValue.object(
            KalendsCommand.Account.fields(account, calendars: calendars)
              + [
                ("addressBookHome", account.addressBookHome.map { .string($0) } ?? .null),
                (
                  "addressBooks",
                  .array(
                    books.map { book in
                      .object([
                        ("id", .string(book.id.description)), ("title", .string(book.title)),
                        ("url", .string(book.remote?.url ?? "")),
                        ("synced", .bool(book.remote?.syncToken != nil || book.remote?.ctag != nil)),
                        ("allowsContentModifications", .bool(book.allowsContentModifications)),
                        ("outgoing", .number(Double(status.outgoing[book.id] ?? 0))),
                        (
                          "quarantined",
                          .array(
                            (book.remote?.quarantined ?? []).map {
                              .object([("name", .string($0.name)), ("reason", .string($0.reason))])
                            })
                        ),
                      ])
                    })
                ),
                ("sync", .object(KalendsCommand.Account.statusFields(status))),
                (
                  "conflicts",
                  .array(
                    status.conflicts.map { collection, conflict in
                      .object([
                        (
                          books.contains { $0.id == collection.id } ? "addressBook" : "calendar",
                          .string(collection.id.description)
                        ), ("name", .string(conflict.name)),
                        ("position", .number(Double(conflict.position.rawValue))),
                        ("localVersion", .number(Double(conflict.localVersion.rawValue))),
                        ("serverEntityTag", conflict.serverEntityTag.map { .string($0) } ?? .null),
                      ])
                    })
                ),
              ]
          ).rendered())
      case .table:
        print("account        \(TerminalText.escaped(account.title)) (\(account.id))")
        print("user           \(TerminalText.escaped(account.user))")
        print("principal      \(TerminalText.escaped(account.principal))")
        print("calendar home  \(TerminalText.escaped(account.calendarHome ?? "—"))")
        print("sync           \(KalendsCommand.Account.statusWords(status))")
        print()
        format.write(
          calendars, json: { _ in [] },
          columns: [
            ("ID", \.id.description), ("TITLE", { TerminalText.escaped($0.title) }),
            ("SYNCED", { $0.remote?.syncToken != nil ? "sync-token" : ($0.remote?.ctag != nil ? "ctag" : "not yet") }),
            ("QUARANTINED", { String($0.remote?.quarantined.count ?? 0) }),
            ("OUTGOING", { String(status.outgoing[$0.id] ?? 0) }),
            ("URL", { TerminalText.escaped($0.remote?.url ?? "") }),
          ])
        for calendar in calendars {
          for object in calendar.remote?.quarantined ?? [] {
            print(
              "quarantined: \(TerminalText.escaped(calendar.title)) / \(TerminalText.escaped(object.name)): "
                + TerminalText.escaped(object.reason))
          }
        }
        if !books.isEmpty {
          print()
          format.write(
            books, json: { _ in [] },
            columns: [
              ("ID", \.id.description), ("ADDRESS BOOK", { TerminalText.escaped($0.title) }),
              (
                "SYNCED", { $0.remote?.syncToken != nil ? "sync-token" : ($0.remote?.ctag != nil ? "ctag" : "not yet") }
              ),
              ("QUARANTINED", { String($0.remote?.quarantined.count ?? 0) }),
              ("OUTGOING", { $0.allowsContentModifications ? String(status.outgoing[$0.id] ?? 0) : "read-only" }),
              ("URL", { TerminalText.escaped($0.remote?.url ?? "") }),
            ])
          for book in books {
            for object in book.remote?.quarantined ?? [] {
              print(
                "quarantined: \(TerminalText.escaped(book.title)) / \(TerminalText.escaped(object.name)): "
                  + TerminalText.escaped(object.reason))
            }
          }
        }
        for (collection, conflict) in status.conflicts.suffix(20) {
          let isBook = books.contains { $0.id == collection.id }
          print(
            "conflict: \(TerminalText.escaped(collection.title)) / \(TerminalText.escaped(conflict.name)) at "
              + "\(conflict.position): the server's version kept; yours is version \(conflict.localVersion) "
              + (isBook ? "(contact history, contact restore)" : "(event history, event restore)"))
        }
      }
    }
  }

  /// `kalends account remove ACCOUNT`.
  struct Remove: ParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "remove",
      abstract: "Remove an account and its calendars from the store (nothing is removed on the server).")

    @OptionGroup var global: GlobalOptions

    @Argument(help: "The account, by name or id.") var account: String

    func run() throws {
      let store = try global.openEventStore()
      try store.requireOwner("remove accounts")
      let account = try KalendsCommand.Account.named(account, in: store)
      try store.removeAccount(account.id)
      // Its credentials, its status and its sync lock: nothing of it stays beside the store.
      let credentials = AccountCredentials.path(forAccount: account.id, store: global.storePath)
      for path in [
        credentials, AccountSyncStatus.path(forAccount: account.id, store: global.storePath),
        String(credentials.dropLast(".credentials".count)) + ".lock",
      ] {
        AccountCredentials.remove(at: path)
      }
    }
  }
}
