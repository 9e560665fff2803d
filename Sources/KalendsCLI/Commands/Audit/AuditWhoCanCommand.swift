import ArgumentParser
import Kalends
import KalendsCommandSupport

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
