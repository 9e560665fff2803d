import ArgumentParser
import Kalends
import KalendsCommandSupport
import KalendsFormats

extension KalendsCommand {
  /// `kalends access`: requests, settings, policies and resets, like iOS Settings and `tccutil`.
  struct Access: ParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "access",
      abstract: "Request access as an app, change it as the person or a policy, reset it, show it.",
      subcommands: [
        Request.self, Set.self, Restrict.self, Unrestrict.self,
        Reset.self, Status.self,
      ])
  }
}

/// `--service calendars|reminders|contacts`.
enum ServiceArgument: String, CaseIterable, ExpressibleByArgument {
  case calendars
  case reminders
  case contacts

  var service: Service { Service(name: rawValue)! }
}

/// `--level full|write-only`.
enum LevelArgument: String, CaseIterable, ExpressibleByArgument {
  case full
  case writeOnly = "write-only"

  var level: AccessLevel { self == .full ? .full : .writeOnly }
}

/// `--answer allow|deny|write-only`.
enum AnswerArgument: String, CaseIterable, ExpressibleByArgument {
  case allow
  case deny
  case writeOnly = "write-only"
  case limited

  var answer: ConsentAnswer { ConsentAnswer(rawValue: rawValue)! }
}

/// One status line as JSON.
func statusJSON(client: String, service: Service, status: AuthorizationStatus) -> [(String, JSONValue)] {
  [("client", .string(client)), ("service", .string(service.description)), ("status", .string(status.description))]
}
