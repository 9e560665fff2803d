import Kalends
import KalendsFleet
import KalendsFormats

/// What `kalends fleet audit report` shows, read from a mirror in one go: the stores it holds, each
/// app across the fleet, and every app's access store by store with the calendars and contacts it
/// was given, named. ``FleetReportPage`` renders it for a browser; the command prints its rows.
struct FleetReport {
  /// One app across the fleet: the stores it is registered in, and per service those where it
  /// could use it at the instant and those where it was denied.
  struct App {
    let client: String
    let name: String?
    let stores: Int
    let may: [Service: Int]
    let denied: [Service: Int]
  }

  /// The mirror's directory.
  let directory: String
  /// When the report was made.
  let generated: Timestamp
  /// The instant the access is replayed to (`nil`: the head of what is verified).
  let instant: Timestamp?
  let stores: [FleetAudit.StoreSummary]
  let apps: [App]
  /// Every app's access to every service, store by store.
  let states: [FleetAudit.State]

  init(audit: FleetAudit, directory: String, at instant: Timestamp?, store only: StoreID?) throws {
    self.directory = directory
    generated = .now()
    self.instant = instant
    states = try audit.state(at: instant, store: only)
    stores = try audit.stores().filter { only == nil || $0.store == only }
    var apps: [String: (name: String?, stores: Set<StoreID>, may: [Service: Int], denied: [Service: Int])] = [:]
    for found in states {
      let state = found.state
      var app = apps[state.client] ?? (found.app, [], [:], [:])
      app.stores.insert(found.store)
      if state.allows(state.service) { app.may[state.service, default: 0] += 1 }
      if state.status == .denied { app.denied[state.service, default: 0] += 1 }
      apps[state.client] = app
    }
    self.apps = apps.sorted { $0.key < $1.key }.map {
      App(
        client: $0.key, name: $0.value.name, stores: $0.value.stores.count, may: $0.value.may, denied: $0.value.denied)
    }
  }

  /// The columns of ``appRows``.
  static let appColumns =
    ["client", "app", "stores"] + Service.allCases.flatMap { [$0.description, "\($0.description)Denied"] }

  /// A row per app, as the table and the JSON print them.
  var appRows: [[(String, JSONValue)]] {
    apps.map { app in
      [("client", .string(app.client)), ("app", .text(app.name)), ("stores", .number(Double(app.stores)))]
        + Service.allCases.flatMap { service -> [(String, JSONValue)] in
          [
            (service.description, .number(Double(app.may[service] ?? 0))),
            ("\(service.description)Denied", .number(Double(app.denied[service] ?? 0))),
          ]
        }
    }
  }
}
