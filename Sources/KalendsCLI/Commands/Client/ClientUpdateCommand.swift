import ArgumentParser
import Kalends
import KalendsCommandSupport
import KalendsFormats

extension KalendsCommand.Client {
  /// `kalends client update`: pins a registered app to its rebuilt executable, or renames it.
  struct Update: ParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "update",
      abstract: "Pin a registered app to its executable again after a rebuild, or change its name.",
      discussion: """
        The person's decision, recorded as a new registration (clientRegistered) that keeps \
        everything else: usage descriptions, iOS version, Flatpak id, and the app's access. \
        --executable takes the file's SHA-256 now (or --sha256): a rebuilt app is refused by the \
        store server with a 401 saying the file changed until it is pinned again.
        """)

    @OptionGroup var global: GlobalOptions

    @Argument(help: "The app's identifier.") var id: String

    @Option(help: ArgumentHelp("The app's executable, as rebuilt.", valueName: "path")) var executable: String?

    @Option(help: ArgumentHelp("The executable's SHA-256 in hex (default: the file's now).", valueName: "hex"))
    var sha256: String?

    @Flag(help: "Pin an interpreter (python3, node, bash, …) as --executable: every script it runs is then this app.")
    var allowInterpreter = false

    @Option(help: "The name the person sees.") var name: String?

    @Option(help: "Output format.") var format: ObjectFormat = .configured

    func validate() throws {
      if executable == nil && name == nil {
        throw ValidationError("nothing to change — give --executable or --name")
      }
      if sha256 != nil && executable == nil { throw ValidationError("--sha256 needs --executable") }
    }

    func run() throws {
      let store = try global.openEventStore()
      guard var client = try store.client(withID: id) else {
        throw CLIError(
          message: "no app \(id) is registered — register it with `kalends client register`", status: .notFound)
      }
      if let name { client.name = name }
      if let executable {
        client.requirement = try Register.requirement(
          executable: executable, sha256: sha256, flatpak: client.requirement?.flatpakApp,
          allowInterpreter: allowInterpreter)
      }
      format.write(try store.register(client).jsonFields)
    }
  }
}
