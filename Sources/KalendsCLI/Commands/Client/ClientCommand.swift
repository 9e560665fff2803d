import ArgumentParser

extension KalendsCommand {
  /// `kalends client`: the apps that may ask for access.
  struct Client: ParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "client",
      abstract: "Register apps (clients) with their usage descriptions, list them, and manage their tokens.",
      subcommands: [Register.self, Update.self, List.self, Token.self])
  }
}
