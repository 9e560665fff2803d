import ArgumentParser
import Kalends

/// `kalends access restrict`: a policy restricts an app.
struct AccessRestrictCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "restrict",
    abstract: "Restrict an app's access by a policy; the person cannot change it until it is lifted.")

  @OptionGroup var global: GlobalOptions

  @Argument(help: "The app's identifier.") var client: String

  @Option(help: "calendars, reminders or contacts.") var service: ServiceArgument

  @Option(help: "The policy's name, recorded as the decision's actor.") var policy = "device-management"

  @Option(help: "Output format.") var format: ObjectFormat = .table

  func run() throws {
    let result = try global.openEventStore().restrict(client, service: service.service, policy: policy)
    format.write(statusJSON(client: client, service: service.service, status: result))
  }
}

/// `kalends access unrestrict`: a policy lifts its restriction.
struct AccessUnrestrictCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "unrestrict",
    abstract: "Lift a policy's restriction: the app's access returns to the person's decision.")

  @OptionGroup var global: GlobalOptions

  @Argument(help: "The app's identifier.") var client: String

  @Option(help: "calendars, reminders or contacts.") var service: ServiceArgument

  @Option(help: "The policy's name, recorded as the decision's actor.") var policy = "device-management"

  @Option(help: "Output format.") var format: ObjectFormat = .table

  func run() throws {
    let result = try global.openEventStore().liftRestriction(client, service: service.service, policy: policy)
    format.write(statusJSON(client: client, service: service.service, status: result))
  }
}
