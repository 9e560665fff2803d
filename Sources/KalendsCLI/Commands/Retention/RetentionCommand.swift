import ArgumentParser
import Kalends
import KalendsCommandSupport
import KalendsFormats

extension KalendsCommand {
  /// `kalends retention`: erase the content of removed items automatically after a period.
  struct Retention: ParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "retention",
      abstract: "Set, show or apply how long removed items keep their content before it is erased.",
      subcommands: [Set.self, Show.self, Apply.self])
  }
}

/// A period: a number and a unit (`s`, `m`, `h`, `d`, `w`), or `off`.
struct RetentionPeriod: ExpressibleByArgument {
  /// Seconds; `nil` for `off`.
  let seconds: Int64?

  init?(argument: String) {
    if argument == "off" {
      seconds = nil
      return
    }
    let units: [Character: Int64] = ["s": 1, "m": 60, "h": 3_600, "d": 86_400, "w": 604_800]
    guard let unit = argument.last.flatMap({ units[$0] }), let count = Int64(argument.dropLast()), count > 0,
      count <= Int64.max / unit
    else { return nil }
    seconds = count * unit
  }

  static func text(_ seconds: Int64) -> String {
    seconds % 86_400 == 0 ? "\(seconds / 86_400)d" : seconds % 3_600 == 0 ? "\(seconds / 3_600)h" : "\(seconds)s"
  }
}

/// The policy as `retention show` and `retention set` print it.
func retentionJSON(_ policy: RetentionPolicy?) -> JSONValue {
  guard let policy else { return .object([("removedAfter", .null), ("setAt", .null)]) }
  return .object([
    ("removedAfter", .number(Double(policy.removedAfterSeconds))),
    ("setAt", .number(Double(policy.setAt.rawValue))),
  ])
}

func retentionText(_ policy: RetentionPolicy?) -> String {
  guard let policy else { return "no retention policy: removed items keep their content until erased" }
  return "removed items are erased \(RetentionPeriod.text(policy.removedAfterSeconds)) after their removal "
    + "(set by record \(policy.setAt))"
}
