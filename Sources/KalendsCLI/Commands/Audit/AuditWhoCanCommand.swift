import ArgumentParser
import Kalends
import KalendsCommandSupport
import KalendsFormats

extension KalendsCommand.Audit {
  /// `kalends audit who-can`: the apps that could use a service.
  struct WhoCan: ParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "who-can",
      abstract: "Which apps could read or write a service at an instant, and on which decision.",
      discussion: """
        fullAccess reads and writes every calendar of the service (or, when the person limited it, the \
        calendars listed as chosen); writeOnly only adds events; limited uses the chosen contacts.
        """)

    @OptionGroup var global: GlobalOptions

    @Option(help: "calendars, reminders or contacts.") var service: ServiceArgument

    @Option(
      help: ArgumentHelp(
        "A calendar of that service: only the apps whose access covers it (all calendars, or it among the chosen).",
        valueName: "id"))
    var calendar: String?

    @Option(
      help: ArgumentHelp(
        "A contact (with --service contacts): only the apps whose access covers it.", valueName: "id"))
    var contact: String?

    @OptionGroup var instant: AuditInstant

    @Option(help: "Output format: table, json or csv.") var format: ReportFormat = .configured

    func run() throws {
      let store = try global.openStore(readOnly: true, for: "read the audit")
      var object: ObjectID?
      if let contact {
        guard service == .contacts else { throw CLIError.invalidInput("--contact goes with --service contacts") }
        object = try ObjectID(argument: contact, option: "--contact")
      }
      if let calendar {
        let events = EventStore(store: store)
        let id = try events.calendarNamed(calendar, option: "--calendar")
        let found = try events.existingCalendar(id)
        let holds: EntityTypes = service == .reminders ? .reminders : .events
        guard found.allowedEntityTypes.contains(holds) else {
          throw CLIError.invalidInput("calendar \(id) holds no \(service.rawValue) — pick a calendar of that service")
        }
        object = service == .calendars ? id : nil
      }
      let audit = PrivacyAudit(store: store)
      let at = try instant.value
      let rows = try audit.whoCan(service.service, object: object, at: at).map { state in
        state.jsonFields + [("may", .string(state.may))]
      }
      if rows.isEmpty && format == .table {
        // A bare header would read as a failure; say what the empty answer means.
        print(
          "no app could use \(service.rawValue) at \(at.map(\.description) ?? "the head of the log") — "
            + "`kalends audit history --service \(service.rawValue)` lists every decision")
        return
      }
      format.write(rows, columns: ["client", "service", "status", "may", "decision", "reason", "chosen"])
    }
  }
}

extension AccessState {
  /// What the access lets the app do, in words.
  var may: String {
    switch status {
    case .writeOnly: "add events"
    case .limited: "use the chosen contacts"
    default: chosen == nil ? "read and write" : "read and write the chosen calendars"
    }
  }
}
