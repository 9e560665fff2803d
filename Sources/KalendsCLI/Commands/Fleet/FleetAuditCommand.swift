import ArgumentParser
import Kalends
import KalendsCommandSupport
import KalendsFleet
import KalendsFormats

extension KalendsCommand.Fleet {
  /// `kalends fleet audit`: the privacy audit across the stores a mirror holds.
  struct Audit: ParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "audit",
      abstract: "Replay who had access to what, when and why, across every store a mirror holds.",
      discussion: """
        Reads the mirror's directory (--dir), from records the mirror verified only: a store's answers \
        end at its last verified record, and a flagged store is marked as such. The answers are the \
        single store's audit's (kalends audit history, state, who-can), store by store, with the \
        store's id in every row; the calendars and contacts chosen for an app are named as the store \
        names them at the head of what is verified (chosenNames; the ids in chosen). Safe beside a \
        running mirror; needs no NATS.
        """,
      subcommands: [Stores.self, History.self, State.self, WhoCan.self, Report.self])
  }
}

/// The options every `fleet audit` command takes.
struct FleetAuditOptions: ParsableArguments {
  @Option(help: "The mirror's directory (kalends fleet mirror --dir).")
  var dir: String

  @Option(help: ArgumentHelp("Only this store.", valueName: "store-id"))
  var store: String?

  /// The mirror's audit; no mirror in the directory exits 66 (not found).
  func audit() -> FleetAudit {
    do { return try FleetAudit(directory: dir) } catch let error as FleetAuditError {
      CommandRunner.fail(error.description, status: .notFound)
    } catch {
      CommandRunner.fail("cannot read the mirror in \(dir): \(error)", status: .storage)
    }
  }

  /// The store asked for; a malformed id exits 64.
  func storeID() -> StoreID? {
    guard let store else { return nil }
    guard let id = StoreID(uuid: store) else {
      CommandRunner.fail("--store takes a store id (kalends status), not \(store)", status: .usage)
    }
    return id
  }

  /// The stores held, by id: a row says whether the store's records are verified or it was flagged.
  func verdicts(_ audit: FleetAudit) throws -> [StoreID: FleetAudit.StoreSummary] {
    Dictionary(uniqueKeysWithValues: try audit.stores().map { ($0.store, $0) })
  }
}

extension FleetAudit.StoreSummary {
  /// `verified`, or `flagged` when the store broke a rule (its rows end at its last verified record).
  var standing: String { flagged ? "flagged" : "verified" }

  /// The standing of a row of this store: `flagged`; else `pending` when the row rests on records
  /// past the store's last checkpoint verified under its enrolled key (`pending`), which its chain
  /// alone vouches for; else `verified`.
  func standing(pending: Bool) -> String { flagged ? "flagged" : pending ? "pending" : "verified" }

  var jsonFields: [(String, JSONValue)] {
    [
      ("store", .string(store.description)), ("verifiedSize", .number(Double(verifiedSize))),
      ("standing", .string(standing)), ("checkpoint", checkpoint.map { .number(Double($0)) } ?? .null),
    ]
  }
}

extension KalendsCommand.Fleet.Audit {
  /// `kalends fleet audit stores`: the stores a mirror holds.
  struct Stores: ParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "stores", abstract: "The stores the mirror holds: records verified, flagged, last checkpoint.")

    @OptionGroup var options: FleetAuditOptions

    @Option(help: "Output format: table, json or csv.") var format: ReportFormat = .configured

    func run() throws {
      let only = options.storeID()
      let rows = try options.audit().stores().filter { only == nil || $0.store == only }.map(\.jsonFields)
      format.write(rows, columns: ["store", "verifiedSize", "standing", "checkpoint"])
    }
  }

  /// `kalends fleet audit history`: the privacy timeline of every store.
  struct History: ParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "history",
      abstract: "The timeline of registrations, requests, decisions and refusals in every store.",
      discussion: """
        As kalends audit history, with the store in every row; by time, then store. With --client, \
        one prefix of the mirror's index finds the app's records in every store.
        """)

    @OptionGroup var options: FleetAuditOptions

    @Option(help: "Only this app.") var client: String?

    @Option(help: "Only this service: calendars, reminders or contacts.") var service: ServiceArgument?

    @OptionGroup var window: AuditWindow

    @Option(help: "Output format: table, json or csv.") var format: ReportFormat = .configured

    func run() throws {
      let audit = options.audit()
      let (since, until) = try window.bounds
      let verdicts = try options.verdicts(audit)
      let entries = try audit.history(
        client: client, service: service?.service, store: options.storeID(), since: since, until: until)
      let rows = entries.map { found -> [(String, JSONValue)] in
        let names = AuditNames(apps: found.app.map { [found.entry.client: $0] } ?? [:])
        return [("store", .string(found.store.description))] + found.entry.jsonFields + [
          ("app", .text(found.app)), ("what", .string(found.entry.sentence(names: names))),
          ("caller", .string(found.entry.caller)),
          ("standing", .string(verdicts[found.store]?.standing(pending: found.pending) ?? "pending")),
        ]
      }
      format.write(
        rows,
        columns: format == .table
          ? ["store", "position", "time", "app", "what", "caller", "standing"]
          : ["store", "standing"] + AuditTimeline.columns.filter { $0 != "pending" })
    }
  }

  /// `kalends fleet audit state`: every app's status in every store.
  struct State: ParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "state",
      abstract: "The status of every app and service in every store at an instant, replayed from the records.")

    @OptionGroup var options: FleetAuditOptions

    @OptionGroup var instant: AuditInstant

    @Option(help: "Output format: table, json or csv.") var format: ReportFormat = .configured

    func run() throws {
      let audit = options.audit()
      let verdicts = try options.verdicts(audit)
      let rows = try audit.state(at: try instant.value, store: options.storeID()).map { found in
        Self.fields(found, verdicts)
      }
      format.write(
        rows, columns: ["store", "client", "app", "service", "status", "decision", "reason", "chosenNames", "standing"])
    }

    static func fields(_ found: FleetAudit.State, _ verdicts: [StoreID: FleetAudit.StoreSummary]) -> [(
      String, JSONValue
    )] {
      [("store", .string(found.store.description)), ("app", .text(found.app))] + found.state.jsonFields + [
        ("chosenNames", found.chosenNames.map { .array($0.map { .string($0) }) } ?? .null),
        ("standing", .string(verdicts[found.store]?.standing(pending: found.pending) ?? "pending")),
      ]
    }
  }

  /// `kalends fleet audit who-can`: the apps that could use a service, store by store.
  struct WhoCan: ParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "who-can",
      abstract: "Which apps could read or write a service at an instant in each store, and on which decision.")

    @OptionGroup var options: FleetAuditOptions

    @Option(help: "calendars, reminders or contacts.") var service: ServiceArgument

    @Option(help: "Only this app.") var client: String?

    @OptionGroup var instant: AuditInstant

    @Option(help: "Output format: table, json or csv.") var format: ReportFormat = .configured

    func run() throws {
      let audit = options.audit()
      let verdicts = try options.verdicts(audit)
      let rows = try audit.whoCan(service.service, at: try instant.value, store: options.storeID())
        .filter { client == nil || $0.state.client == client }
        .map { State.fields($0, verdicts) + [("may", .string($0.state.may))] }
      format.write(
        rows, columns: ["store", "client", "app", "status", "may", "decision", "reason", "chosenNames", "standing"])
    }
  }
}
