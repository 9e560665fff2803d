import ArgumentParser
import Foundation
import Kalends
import KalendsCommandSupport
import KalendsFormats
import KalendsServer

extension KalendsCommand {
  /// `kalends prompts`: the consent prompts the store server holds for the person.
  struct Prompts: ParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "prompts",
      abstract:
        "List the apps' access requests and contact pickers waiting for you at the store server, or answer one.",
      discussion: """
        Talks to the store server (kalends serve) over its socket as the person who owns the store: \
        the server takes this kalends executable, run by the store's owner, for the person's channel. \
        Apps cannot list or answer prompts; an app that tries is refused and the attempt recorded.
        """,
      subcommands: [List.self, Answer.self],
      defaultSubcommand: List.self)
  }
}

extension KalendsCommand.Prompts {
  /// Where the server listens.
  struct SocketOptions: ParsableArguments {
    @Option(
      help: ArgumentHelp(
        "The store server's socket (default $XDG_RUNTIME_DIR/kalends/kalends.sock for the default store, else "
          + "…/kalends/STORE-ID.sock).", valueName: "path"))
    var socket: String?
  }

  /// `kalends prompts list`.
  struct List: ParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "list", abstract: "List the prompts waiting for your answer, oldest first.")

    @OptionGroup var global: GlobalOptions
    @OptionGroup var server: SocketOptions

    @Option(
      help: ArgumentHelp(
        "Wait up to this many seconds for a prompt to open when none waits (1–86400).", valueName: "seconds"))
    var wait: Int?

    @Option(help: "Output format.") var format: ObjectFormat = .configured

    func validate() throws {
      if let wait, !(1...86_400).contains(wait) { throw ValidationError("--wait takes 1 to 86400 seconds") }
    }

    func run() throws {
      try global.requireOwner("answer consent prompts")
      let socket = try ServerSocket.path(server.socket, global: global)
      let deadline = Date().addingTimeInterval(TimeInterval(wait ?? 0))
      var response = try UnixHTTPClient.request("GET", "/v1/prompts", socket: socket)
      var prompts = try Answer.decode(response) as? [[String: Any]] ?? []
      while prompts.isEmpty && Date() < deadline {
        usleep(200_000)
        response = try UnixHTTPClient.request("GET", "/v1/prompts", socket: socket)
        prompts = try Answer.decode(response) as? [[String: Any]] ?? []
      }
      switch format {
      case .json: print(response.body.trimmingCharacters(in: .whitespacesAndNewlines))
      case .table:
        let rows = prompts.map { prompt in
          ["id", "name", "client", "service", "level", "usageDescription", "executable"].map { key in
            prompt[key].flatMap { $0 is NSNull ? nil : "\($0)" } ?? ""
          }
        }
        print(TextTable.columns([["ID", "APP", "CLIENT", "SERVICE", "LEVEL", "WHY", "EXECUTABLE"]] + rows))
      }
    }
  }

  /// `kalends prompts answer`.
  struct Answer: ParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "answer",
      abstract:
        "Answer a waiting prompt: allow (optionally for chosen calendars), write-only, limited or deny; pick or cancel."
    )

    @OptionGroup var global: GlobalOptions
    @OptionGroup var server: SocketOptions

    @Argument(help: "The prompt's id (prompts list).") var id: UInt64

    @Argument(
      help: "allow, write-only (calendars), limited (contacts) or deny; to a contact picker, pick or cancel.")
    var answer: String

    @Option(
      parsing: .upToNextOption,
      help: ArgumentHelp(
        "With limited: the contacts the app may use. With pick: the one contact picked.", valueName: "id"))
    var contacts: [String] = []

    @Option(
      parsing: .upToNextOption,
      help: ArgumentHelp(
        "With allow, for full access to calendars: the only calendars given, by title or id.", valueName: "calendar"))
    var calendars: [String] = []

    func run() throws {
      try global.requireOwner("answer consent prompts")
      guard ConsentAnswer(rawValue: answer) != nil || ["pick", "cancel"].contains(answer) else {
        throw CLIError.invalidInput("answer allow, write-only, limited, deny, pick or cancel, not \"\(answer)\"")
      }
      if answer == "pick" && contacts.count != 1 {
        throw CLIError.invalidInput("pick names the one contact picked: --contacts ID")
      }
      var query = "answer=\(answer)"
      let socket = try ServerSocket.path(server.socket, global: global)
      for text in contacts { query += "&contact=\(try ObjectID(argument: text, option: "--contacts"))" }
      // Calendars by title as every other --calendars takes them: read from the store, which a
      // reader may open beside the server that writes it.
      if !calendars.isEmpty {
        let store = try global.openEventStore(readOnly: true)
        for text in calendars {
          query += "&calendar=\(try store.calendarNamed(text, option: "--calendars"))"
        }
      }
      let response = try UnixHTTPClient.request("POST", "/v1/prompts/\(id)?\(query)", socket: socket)
      _ = try Self.decode(response)
      print("answered prompt \(id): \(answer)")
    }

    /// The JSON of a 200 response; the server's problem as this command's error otherwise.
    static func decode(_ response: UnixHTTPClient.Response) throws -> Any {
      let value = try? JSONSerialization.jsonObject(with: Data(response.body.utf8))
      guard response.status == 200, let value else {
        let problem = value as? [String: Any]
        let detail = problem?["detail"] as? String ?? "the store server answered \(response.status)"
        let category = (problem?["category"] as? String).flatMap(FailureCategory.init(rawValue:)) ?? .storage
        throw CLIError(message: detail, category: category)
      }
      return value
    }
  }
}
