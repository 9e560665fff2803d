import ArgumentParser
import Kalends
import KalendsCommandSupport

extension KalendsCommand.Audit {
  /// `kalends audit state`: every status at an instant.
  struct State: ParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "state", abstract: "The status of every app and service at an instant, replayed from the log.")

    @OptionGroup var global: GlobalOptions

    @OptionGroup var instant: AuditInstant

    @Option(help: "Output format: table, json or csv.") var format: ReportFormat = .table

    func run() throws {
      let audit = PrivacyAudit(store: try global.openStore(readOnly: true, for: "read the audit"))
      format.write(
        try audit.state(at: try instant.value).map(\.jsonFields),
        columns: ["client", "service", "status", "decision", "reason"])
    }
  }
}

extension KalendsCommand.Audit {
  /// `kalends audit who-can`: the apps that could use a service.
  struct WhoCan: ParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "who-can",
      abstract: "Which apps could read or write a service at an instant, and on which decision.",
      discussion: "fullAccess reads and writes every calendar of the service; writeOnly only adds events.")

    @OptionGroup var global: GlobalOptions

    @Option(help: "calendars, reminders or contacts.") var service: ServiceArgument

    @Option(
      help: ArgumentHelp(
        "A calendar of that service: access is per service, so this checks the calendar and names what each app may do with it.",
        valueName: "id"))
    var calendar: String?

    @OptionGroup var instant: AuditInstant

    @Option(help: "Output format: table, json or csv.") var format: ReportFormat = .table

    func run() throws {
      let store = try global.openStore(readOnly: true, for: "read the audit")
      if let calendar {
        let id = try ObjectID(argument: calendar, option: "--calendar")
        guard let found = try EventStore(store: store).calendar(withID: id) else {
          throw StoreError.calendar(.calendarNotFound(id))
        }
        let holds: EntityTypes = service == .reminders ? .reminders : .events
        guard found.allowedEntityTypes.contains(holds) else {
          throw CLIError.invalidInput("calendar \(id) holds no \(service.rawValue) — pick a calendar of that service")
        }
      }
      let audit = PrivacyAudit(store: store)
      let at = try instant.value
      let rows = try audit.whoCan(service.service, at: at).map { state in
        state.jsonFields + [("may", .string(state.status == .fullAccess ? "read and write" : "add events"))]
      }
      if rows.isEmpty && format == .table {
        // A bare header would read as a failure; say what the empty answer means.
        print(
          "no app could use \(service.rawValue) at \(at.map(\.description) ?? "the head of the log") — "
            + "`kalends audit history --service \(service.rawValue)` lists every decision")
        return
      }
      format.write(rows, columns: ["client", "service", "status", "may", "decision", "reason"])
    }
  }
}

extension KalendsCommand.Audit {
  /// `kalends audit verify`: the chain and the permission projection.
  struct Verify: ParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "verify",
      abstract: "Prove the history was not altered: the chain is intact and the permissions equal a replay.",
      discussion: "Exits 69 naming the first damaged position or the divergent projection database.")

    @OptionGroup var global: GlobalOptions

    @Option(help: "Output format.") var format: ObjectFormat = .table

    func run() throws {
      let store = try global.openStore(readOnly: true, for: "verify the audit")
      let report = try store.verify()
      if let problem = report.problem {
        CommandRunner.fail(
          "the log is damaged at position \(problem.position) (\(problem.kind.rawValue)): \(problem.detail)",
          status: .integrity)
      }
      let projections = try store.verifyProjections()
      let permissions = projections.live.keys.filter { $0.hasPrefix("permissions.") }.sorted()
      let divergent = projections.divergent.filter { $0.hasPrefix("permissions.") }
      format.write([
        ("intact", .bool(divergent.isEmpty)), ("recordsChecked", .number(Double(report.recordsChecked))),
        ("headHash", .string(report.verifiedHead.hash.hex)), ("databases", .array(permissions.map { .string($0) })),
        ("divergent", .array(divergent.map { .string($0) })),
      ])
      if !divergent.isEmpty {
        CommandRunner.fail(
          "the permission projection differs from a replay of the log: \(divergent.joined(separator: ", ")) — run kalends rebuild",
          status: .integrity)
      }
    }
  }
}

/// `--at` of the audit's state and who-can.
struct AuditInstant: ParsableArguments {
  @Option(
    help: ArgumentHelp(
      "The instant (default: now, which is the head of the log: every record, whatever its writer's clock said).",
      valueName: "date"))
  var at: String?

  /// The instant asked for; `nil` for the head of the log (no `--at`, or `now`).
  var value: Timestamp? {
    get throws(CLIError) { try AuditTime.instant(at) }
  }
}
