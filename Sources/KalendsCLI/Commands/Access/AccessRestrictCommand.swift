import ArgumentParser
import Kalends
import KalendsCommandSupport
import KalendsFormats

/// What `access restrict` and `access unrestrict` share: which app, which service, which policy.
struct PolicyOptions: ParsableArguments {
  @OptionGroup var global: GlobalOptions

  @Argument(help: "The app's identifier.") var client: String

  @Option(help: "calendars, reminders or contacts.") var service: ServiceArgument

  @Option(help: "The policy's name, recorded as the decision's actor.") var policy = "device-management"

  @Option(help: "Output format.") var format: ObjectFormat = .configured

  /// Applies `change` to the store and prints the resulting status.
  func run(_ change: (EventStore, String, Service, String) throws -> AuthorizationStatus) throws {
    let result = try change(try global.openEventStore(), client, service.service, policy)
    format.write(statusJSON(client: client, service: service.service, status: result))
  }
}

extension KalendsCommand.Access {
  /// `kalends access restrict`: a policy restricts an app.
  struct Restrict: ParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "restrict",
      abstract: "Restrict an app's access by a policy; the person cannot change it until it is lifted.")

    @OptionGroup var options: PolicyOptions

    func run() throws {
      try options.run { store, client, service, policy in
        try store.privacySettings().restrict(client, service: service, policy: policy)
      }
    }
  }
}

extension KalendsCommand.Access {
  /// `kalends access unrestrict`: a policy lifts its restriction.
  struct Unrestrict: ParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "unrestrict",
      abstract: "Lift a policy's restriction: the app's access returns to the person's decision.")

    @OptionGroup var options: PolicyOptions

    func run() throws {
      try options.run { store, client, service, policy in
        try store.privacySettings().liftRestriction(client, service: service, policy: policy)
      }
    }
  }
}
