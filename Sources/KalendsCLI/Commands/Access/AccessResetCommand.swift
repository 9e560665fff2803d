import ArgumentParser
import Kalends
import KalendsCommandSupport
import KalendsFormats

extension KalendsCommand.Access {
  /// `kalends access reset`: like `tccutil reset`.
  struct Reset: ParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "reset",
      abstract: "Return one app (or every app) to notDetermined for one service (or all), like tccutil reset.")

    @OptionGroup var global: GlobalOptions

    @Argument(help: "The app's identifier (default: every app).") var client: String?

    @Option(help: "calendars, reminders or contacts (default: all).") var service: ServiceArgument?

    @Option(help: "Output format.") var format: ObjectFormat = .configured

    func run() throws {
      let changed = try global.openEventStore().privacySettings().resetAccess(client: client, service: service?.service)
      format.write([("changed", .number(Double(changed)))])
    }
  }
}
