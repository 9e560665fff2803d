import ArgumentParser
import Kalends
import KalendsCommandSupport
import KalendsFormats

extension KalendsCommand.Audit {
  /// `kalends audit uses`: what apps read, minute by minute.
  struct Uses: ParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "uses",
      abstract: "What apps read with the access they held: per app, service, operation and minute.",
      discussion: """
        Each row is one minute of one app's reads of one service by one operation, with how many \
        reads it held and the calendars (or chosen contacts) they touched — never what was read. An \
        app's writes are in `kalends log`. The count of a minute's repeated reads reaches the log \
        within seconds of the minute's end.
        """)

    @OptionGroup var global: GlobalOptions

    @Option(help: "Only this app, by its id or its name.") var client: String?

    @Option(help: "Only this service: calendars, reminders or contacts.") var service: ServiceArgument?

    @Option(help: ArgumentHelp("Only reads that touched this calendar (title or id).", valueName: "name"))
    var calendar: String?

    @Option(help: ArgumentHelp("Only reads that were handed this chosen contact.", valueName: "id"))
    var contact: String?

    @OptionGroup var window: AuditWindow

    @Option(help: "Output format: table, json or csv.") var format: ReportFormat = .configured

    func run() throws {
      let store = try global.openStore(readOnly: true, for: "read the audit")
      let owner = EventStore(store: store)
      var object: ObjectID?
      if let calendar { object = try owner.calendarNamed(calendar, option: "--calendar") }
      if let contact {
        guard object == nil else { throw CLIError.invalidInput("give --calendar or --contact, not both") }
        object = try ObjectID(argument: contact, option: "--contact")
      }
      let (since, until) = try window.bounds
      let client = try self.client.map { try owner.clientNamed($0, option: "--client") }
      let uses = try PrivacyAudit(store: store).uses(
        client: client, service: service?.service, object: object, since: since, until: until)
      let names = try AuditNames(owner)
      if uses.isEmpty && format == .table {
        print("no app read anything in that window — `kalends audit apps` shows each app's access and last use")
        return
      }
      let rows = uses.map { use in
        var fields = use.jsonFields(names: names.apps, titles: names.calendars)
        guard format != .json else { return fields }
        // A table names calendars by title and contacts by name, and says how the app was known.
        let touched = use.objects.map(names.object).joined(separator: "; ")
        fields = fields.filter { !["calendars", "contacts", "identified"].contains($0.0) }
        return fields + [
          ("touched", .string(touched)), ("identified", .string(use.caller)),
        ]
      }
      format.write(
        rows,
        columns: ["start", "client", "app", "service", "operation", "count", "touched", "status", "identified"])
    }
  }
}
