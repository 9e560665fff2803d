import ArgumentParser

/// `kalends client`: the apps that may ask for access.
struct ClientCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "client",
    abstract: "Register apps (clients) with their usage descriptions, and list them.",
    subcommands: [ClientRegisterCommand.self, ClientListCommand.self])
}
