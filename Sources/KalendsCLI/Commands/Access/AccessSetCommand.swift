import ArgumentParser
import Kalends
import KalendsCommandSupport

extension KalendsCommand.Access {
  /// `kalends access set`: the person changes an app's access in settings.
  struct Set: ParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "set",
      abstract: "Change an app's access as the person does in settings (ends its open sessions).")

    @OptionGroup var global: GlobalOptions

    @Argument(help: "The app's identifier.") var client: String

    @Option(help: "calendars, reminders or contacts.") var service: ServiceArgument

    @Option(help: "full, write-only or denied.") var status: String

    @Option(help: "Output format.") var format: ObjectFormat = .table

    func run() throws {
      let statuses: [String: AuthorizationStatus] = ["full": .fullAccess, "write-only": .writeOnly, "denied": .denied]
      guard let wanted = statuses[status] else {
        throw CLIError.invalidInput("--status \"\(status)\": write full, write-only or denied")
      }
      let result = try global.openEventStore().setAccess(wanted, for: client, service: service.service)
      format.write(statusJSON(client: client, service: service.service, status: result))
    }
  }
}
