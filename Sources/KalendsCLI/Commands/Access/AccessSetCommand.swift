import ArgumentParser
import Kalends
import KalendsCommandSupport
import KalendsFormats

extension KalendsCommand.Access {
  /// `kalends access set`: the person changes an app's access in settings.
  struct Set: ParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "set",
      abstract: "Change an app's access as the person does in settings (ends its open sessions).")

    @OptionGroup var global: GlobalOptions

    @Argument(help: "The app's identifier.") var client: String

    @Option(help: "calendars, reminders or contacts.") var service: ServiceArgument

    @Option(help: "full, write-only (calendars), limited (contacts) or denied.") var status: String

    @Option(
      parsing: .upToNextOption,
      help: ArgumentHelp(
        "With --status limited: the contacts the app may use (besides those it creates).", valueName: "id"))
    var contacts: [String] = []

    @Option(
      parsing: .upToNextOption,
      help: ArgumentHelp(
        "With --service calendars --status full: the only calendars the app may use (besides those it creates).",
        valueName: "id"))
    var calendars: [String] = []

    @Option(help: "Output format.") var format: ObjectFormat = .configured

    func run() throws {
      let statuses: [String: AuthorizationStatus] = [
        "full": .fullAccess, "write-only": .writeOnly, "denied": .denied, "limited": .limited,
      ]
      guard let wanted = statuses[status] else {
        throw CLIError.invalidInput("--status \"\(status)\": write full, write-only, limited or denied")
      }
      if !contacts.isEmpty && wanted != .limited {
        throw CLIError.invalidInput("--contacts goes with --status limited")
      }
      if !calendars.isEmpty && (wanted != .fullAccess || service != .calendars) {
        throw CLIError.invalidInput("--calendars goes with --service calendars --status full")
      }
      let store = try global.openEventStore()
      if !calendars.isEmpty {
        let ids = try calendars.map { try store.calendarNamed($0, option: "--calendars") }
        let result = try store.privacySettings().setCalendarAccess(for: client, calendars: ids)
        var fields = statusJSON(client: client, service: service.service, status: result)
        fields.append(
          (
            "calendars",
            .array((try store.privacySettings().chosenCalendars(for: client) ?? []).map { .string($0.description) })
          ))
        format.write(fields)
        return
      }
      if wanted == .limited {
        guard service == .contacts else {
          throw CLIError.invalidInput("--status limited is for --service contacts: the person chooses contacts")
        }
        let ids = try contacts.map { text throws(CLIError) in try ObjectID(argument: text, option: "--contacts") }
        let result = try store.privacySettings().setLimitedAccess(for: client, contacts: ids)
        var fields = statusJSON(client: client, service: service.service, status: result)
        fields.append(
          ("contacts", .array(try store.privacySettings().chosenContacts(for: client).map { .string($0.description) })))
        format.write(fields)
        return
      }
      let result = try store.privacySettings().setAccess(wanted, for: client, service: service.service)
      format.write(statusJSON(client: client, service: service.service, status: result))
    }
  }
}
