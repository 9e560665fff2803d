import ArgumentParser
import Kalends
import KalendsCommandSupport
import KalendsFormats
import KalendsSync

extension KalendsCommand.Account {
  /// `kalends account add caldav|carddav URL`.
  struct Add: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "add",
      abstract: "Add a CalDAV or CardDAV account, found from its address, and sync it.",
      discussion: """
        The address may be a bare host (asked at /.well-known/caldav and /.well-known/carddav, \
        RFC 6764), a .well-known address or the principal's. A caldav account syncs the \
        principal's calendars and its address books when it has them; a carddav account its \
        address books alone (for a provider serving contacts at an address of their own). Where the password comes from (never the password) is kept in \
        STORE/accounts/ID.credentials, mode 0600, outside the log. The account's calendars take \
        changes where the server lets the user make them; changes made here go out at each sync.
        """)

    /// The kinds of account: `caldav` syncs the principal's calendars and, when it has them, its
    /// address books; `carddav` its address books alone (a provider serving contacts at an
    /// address of their own: Fastmail's carddav.fastmail.com, iCloud's contacts.icloud.com).
    enum Kind: String, ExpressibleByArgument, CaseIterable {
      case caldav
      case carddav
    }

    @OptionGroup var global: GlobalOptions

    @Argument(help: "The kind of account.") var kind: Kind

    @Argument(help: "The account's address (https://dav.example.com, or host alone).") var url: String

    @Option(help: "The user name.") var user: String

    @OptionGroup var password: PasswordOptions

    @Option(help: "The account's name (default: the server's host).") var title: String?

    @Flag(help: "Add it without syncing it now.") var noSync = false

    @Option(help: "Seconds to wait for each request.") var timeout = 30

    @Option(help: "Output format.") var format: ObjectFormat = .configured

    func validate() throws { _ = try password.required() }

    func run() async throws {
      let store = try global.openEventStore()
      try store.requireOwner("add accounts")
      let credentials = try password.required()
      let found: AccountDiscovery
      do {
        found = try await AccountDiscovery.discover(
          url, user: user, credentials: credentials, timeout: timeout, addressBooksOnly: kind == .carddav)
      } catch {
        throw KalendsCommand.Account.failure(error)
      }
      let host = RemoteURL(found.principal)?.host ?? url
      let account = try store.addAccount(
        CalendarAccount(
          title: title ?? host, principal: found.principal, user: user, calendarHome: found.calendarHome,
          addressBookHome: found.addressBookHome))
      do {
        try credentials.save(to: AccountCredentials.path(forAccount: account.id, store: global.storePath))
      } catch {
        try? store.removeAccount(account.id)
        throw KalendsCommand.Account.failure(error)
      }
      if noSync {
        format.write(
          [account], json: { KalendsCommand.Account.fields($0, calendars: []) },
          columns: [("ID", \.id.description), ("TITLE", \.title)])
        return
      }
      try await KalendsCommand.Account.Sync.sync(
        [account], store: store, storePath: global.storePath, timeout: timeout, format: format)
    }
  }
}
