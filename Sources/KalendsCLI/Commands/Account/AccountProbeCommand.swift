import ArgumentParser
import KalendsCommandSupport
import KalendsFormats
import KalendsSync

extension KalendsCommand.Account {
  /// `kalends account probe`: what an account holds, found as its sync will find it.
  struct Probe: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "probe",
      abstract: "Find an account's principal, homes, calendars and address books; nothing is written.",
      discussion: """
        The address may be a bare host (asked at /.well-known/caldav and /.well-known/carddav, RFC \
        6764), a .well-known address or the principal's. The password comes from --password-command \
        (its first line of output: `pass show fastmail`, `secret-tool lookup …`) or --password-file \
        (a file of this user's, mode 0600); it is sent to the server only, over TLS for https. \
        --token-command prints an OAuth 2.0 access token instead, sent as a Bearer token (Google).
        """)

    @Argument(help: "The account's address (https://dav.example.com, or host alone).") var url: String

    @Option(help: "The user name.") var user: String

    @OptionGroup var password: PasswordOptions

    @Option(help: "Seconds to wait for each request.") var timeout = 30

    @Option(help: "Output format.") var format: ObjectFormat = .configured

    func validate() throws { _ = try password.required() }

    func run() async throws {
      let credentials = try password.required()
      let found: AccountDiscovery
      do {
        found = try await AccountDiscovery.discover(url, user: user, credentials: credentials, timeout: timeout)
      } catch {
        throw CLIError(message: error.description, status: ExitStatus(error.category))
      }
      let collections: [JSONValue] = found.collections.map { collection in
        .object([
          ("kind", .string(collection.kind.rawValue)), ("name", .string(collection.name)),
          ("url", .string(collection.url)), ("color", collection.color.map { .string($0) } ?? .null),
          ("components", .array(collection.components.map { .string($0) })),
          ("writable", .bool(collection.writable)), ("syncToken", .bool(collection.syncToken != nil)),
        ])
      }
      switch format {
      case .json:
        print(
          JSONValue.object([
            ("principal", .string(found.principal)),
            ("calendarHome", found.calendarHome.map { .string($0) } ?? .null),
            ("addressBookHome", found.addressBookHome.map { .string($0) } ?? .null),
            ("collections", .array(collections)),
          ]).rendered())
      case .table:
        print("principal        \(TerminalText.escaped(found.principal))")
        print("calendar home    \(TerminalText.escaped(found.calendarHome ?? "—"))")
        print("address books    \(TerminalText.escaped(found.addressBookHome ?? "—"))")
        print()
        format.write(
          found.collections, json: { _ in [] },
          columns: [
            ("KIND", \.kind.rawValue), ("NAME", { TerminalText.escaped($0.name) }),
            (
              "HOLDS",
              {
                $0.kind == .addressBook
                  ? "contacts" : ($0.components.isEmpty ? "all" : $0.components.joined(separator: ","))
              }
            ),
            ("ACCESS", { $0.writable ? "read-write" : "read-only" }),
            ("SYNC", { $0.syncToken == nil ? "etags" : "sync-collection" }),
            ("URL", { TerminalText.escaped($0.url) }),
          ])
      }
    }
  }
}
