import ArgumentParser
import Kalends
import KalendsCommandSupport
import KalendsFormats

extension KalendsCommand {
  /// `kalends push`: the apps' WebDAV-Push registrations, the person's to see and end.
  struct Push: ParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "push",
      abstract: "List and remove the apps' push registrations (WebDAV-Push).",
      subcommands: [List.self, Remove.self])
  }
}

extension KalendsCommand.Push {
  /// `kalends push list`.
  struct List: ParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "list",
      abstract:
        "List the live push registrations by app: the collection, the push service's host, the expiry, and how many changes the app was told of since (the audit's count) and when last."
    )

    @OptionGroup var global: GlobalOptions
    @Option(help: "Output format.") var format: ObjectFormat = .configured

    func run() throws {
      let store = try global.openEventStore(readOnly: true)
      try store.requireOwner("list push registrations")
      let registrations = try store.pushRegistrations()
      let titles = try Self.collectionTitles(store)
      let now = store.store.now()
      // What each app was told of the collection since the registration was made: the audit's
      // count of its push notices (per app and collection: shared by its registrations of it).
      let audit = PrivacyAudit(store: store.store)
      var told: [ObjectID: (count: Int, last: Timestamp?)] = [:]
      for registration in registrations {
        let minute = registration.created.rawValue / 60_000_000 * 60_000_000
        let notices = try audit.uses(
          client: registration.client, service: registration.service, object: registration.collection,
          since: Timestamp(rawValue: minute)
        ).filter { $0.operation == EventStore.pushNoticeOperation }
        told[registration.id] = (notices.reduce(0) { $0 + $1.count }, notices.last?.start)
      }
      format.write(
        registrations,
        json: { registration in
          [
            ("id", .string(registration.id.description)), ("client", .string(registration.client)),
            ("collection", .string(registration.collection.description)),
            ("service", .string(registration.service.description)), ("host", .string(registration.host)),
            ("expires", .string(registration.expires.description)),
            ("created", .string(registration.created.description)),
            ("expired", .bool(registration.hasExpired(at: now))),
            ("tokenId", registration.tokenID.map { .string($0) } ?? .null),
            ("told", .number(told[registration.id]?.count ?? 0)),
            ("lastTold", told[registration.id]?.last.map { .string($0.description) } ?? .null),
          ]
        },
        columns: [
          ("ID", \.id.description), ("APP", \.client),
          ("COLLECTION", { TerminalText.escaped(titles[$0.collection] ?? $0.collection.description) }),
          ("HOST", { TerminalText.escaped($0.host) }),
          ("EXPIRES", { $0.hasExpired(at: now) ? "expired" : $0.expires.description }),
          ("TOLD", { String(told[$0.id]?.count ?? 0) }),
          ("LAST TOLD", { told[$0.id]?.last?.description ?? "never" }),
        ])
    }

    /// The titles of the calendars and address books, by id.
    static func collectionTitles(_ store: EventStore) throws -> [ObjectID: String] {
      var titles: [ObjectID: String] = [:]
      for calendar in try store.calendars() { titles[calendar.id] = calendar.title }
      for book in try store.contactStore.contactContainers() { titles[book.id] = book.title }
      return titles
    }
  }

  /// `kalends push remove ID`.
  struct Remove: ParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "remove", abstract: "End a push registration: its app hears no more through it.")

    @OptionGroup var global: GlobalOptions
    @Argument(help: "The registration's id (kalends push list).") var id: String

    func run() throws {
      let store = try global.openEventStore()
      try store.requireOwner("remove push registrations")
      guard let registration = ObjectID(id) else { throw CLIError.invalidInput("\(id) is not a registration's id") }
      guard try store.unregisterPush(registration) else {
        throw CLIError(message: "no push registration \(id)", status: .notFound)
      }
      print("removed push registration \(id)")
    }
  }
}
