import ArgumentParser
import Kalends
import KalendsCommandSupport
import KalendsFormats

extension KalendsCommand.Access {
  /// `kalends access status`: the current statuses.
  struct Status: ParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "status", abstract: "Show the access of one app (or every app) to every service.")

    @OptionGroup var global: GlobalOptions

    @Argument(help: "The app's identifier (default: every app).") var client: String?

    @Option(help: "Output format.") var format: ObjectFormat = .configured

    func run() throws {
      // An app may see its own statuses (EventKit's authorizationStatus), never another app's.
      if let app = global.client, let client, client != app {
        try global.requireOwner("read another app's access")
      }
      let store = try global.openEventStore(readOnly: true)
      let ids = try (client ?? global.client).map { [$0] } ?? store.clients().map(\.id)
      var rows: [(client: String, service: Service, status: AuthorizationStatus)] = []
      for id in ids {
        guard try store.client(withID: id) != nil else { throw StoreError.access(.clientNotRegistered(id)) }
        for service in Service.allCases {
          rows.append((id, service, try store.authorizationStatus(for: service, client: id)))
        }
      }
      format.write(
        rows, json: { statusJSON(client: $0.client, service: $0.service, status: $0.status) },
        columns: [("CLIENT", \.client), ("SERVICE", \.service.description), ("STATUS", \.status.description)])
    }
  }
}
