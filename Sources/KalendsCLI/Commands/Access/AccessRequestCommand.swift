import ArgumentParser
import Foundation
import Kalends
import KalendsCommandSupport
import KalendsFormats

extension KalendsCommand.Access {
  /// `kalends access request`: an app asks for access.
  struct Request: ParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "request",
      abstract: "Ask for access as the app given with --as; the person is asked once.",
      discussion: """
        While undetermined, the person is asked on the terminal (or --answer gives the answer for \
        scripts); afterwards the stored decision is returned without asking. Prints the status.
        """)

    @OptionGroup var global: GlobalOptions

    @Option(help: "calendars, reminders or contacts.") var service: ServiceArgument

    @Option(help: "full or write-only (calendars).") var level: LevelArgument = .full

    @Option(help: "The person's answer, for scripts: allow, deny, write-only (calendars) or limited (contacts).")
    var answer: AnswerArgument?

    @Option(
      parsing: .upToNextOption,
      help: ArgumentHelp("With --answer limited: the contacts the person chooses.", valueName: "id"))
    var contacts: [String] = []

    @Option(
      parsing: .upToNextOption,
      help: ArgumentHelp(
        "With --answer allow for full access to calendars: the only calendars the person gives.", valueName: "id"))
    var calendars: [String] = []

    @Flag(
      help: """
        Ask as an app built before iOS 17 does, with requestAccess(to:): for calendars the write-only \
        prompt, reported as granted (prints "granted" too).
        """)
    var legacy = false

    @Option(help: "Output format.") var format: ObjectFormat = .configured

    func run() throws {
      guard let client = global.client else { throw CLIError.invalidInput("access request needs --as CLIENT") }
      let session = try global.openEventStore()
      let asked: AccessLevel = legacy && service == .calendars ? .writeOnly : level.level
      // Without a terminal the stored decision is still returned; only a question needs one.
      if answer == nil, isatty(STDIN_FILENO) != 1, try session.requestWouldPrompt(asked, to: service.service) {
        throw CLIError.invalidInput("there is no terminal to ask the person — pass --answer allow|deny|write-only")
      }
      if legacy {
        let granted: Bool
        if let answer {
          granted = try session.requestAccess(to: service.service, prompter: FixedAnswerPrompter(answer.answer))
        } else {
          granted = try session.requestAccess(to: service.service, prompter: TerminalPrompter())
        }
        let status = try session.authorizationStatus(for: service.service)
        var fields = statusJSON(client: client, service: service.service, status: status)
        fields.append(("granted", .bool(granted)))
        format.write(fields)
        return
      }
      let status: AuthorizationStatus
      if let answer {
        let chosen = try contacts.map { text throws(CLIError) in try ObjectID(argument: text, option: "--contacts") }
        let chosenCalendars =
          calendars.isEmpty
          ? nil : try calendars.map { text throws(CLIError) in try ObjectID(argument: text, option: "--calendars") }
        let prompter = FixedAnswerPrompter(answer.answer, contacts: chosen, calendars: chosenCalendars)
        status =
          level == .full
          ? try session.requestFullAccess(to: service.service, prompter: prompter)
          : try session.requestWriteOnlyAccess(to: service.service, prompter: prompter)
      } else {
        status =
          level == .full
          ? try session.requestFullAccess(to: service.service, prompter: TerminalPrompter())
          : try session.requestWriteOnlyAccess(to: service.service, prompter: TerminalPrompter())
      }
      format.write(statusJSON(client: client, service: service.service, status: status))
    }
  }
}
