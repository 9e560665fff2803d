import Foundation
import KalendsTestSupport
import Testing

/// The help texts name commands people will type: every `kalends …` a help text names must be a
/// command that exists (the review found `erase --help` naming `kalends store compact`).
@Suite("Help texts name only commands that exist")
struct HelpReferencesTests {
  /// A command of the tree `--experimental-dump-help` prints: its name, texts and subcommands.
  struct Command {
    let name: String
    let texts: [String]
    let subcommands: [Command]

    init(_ object: [String: Any]) {
      name = object["commandName"] as? String ?? ""
      var texts = [object["abstract"] as? String, object["discussion"] as? String].compactMap { $0 }
      for argument in object["arguments"] as? [[String: Any]] ?? [] {
        texts += [argument["abstract"] as? String, argument["discussion"] as? String].compactMap { $0 }
      }
      self.texts = texts
      subcommands = (object["subcommands"] as? [[String: Any]] ?? []).map(Command.init)
    }

    var all: [Command] { [self] + subcommands.flatMap(\.all) }
  }

  @Test func everyCommandAHelpTextNamesExists() throws {
    let dump = try CLI.run(["--experimental-dump-help"])
    #expect(dump.status == 0, "\(dump.stderr)")
    let root = Command(try #require((try json(dump.stdout) as? [String: Any])?["command"] as? [String: Any]))
    var checked = 0
    for command in root.all {
      for text in command.texts {
        for reference in Self.references(in: text) {
          var current = root
          for word in reference {
            guard !word.hasPrefix("-"), !current.subcommands.isEmpty else { break }
            let next = current.subcommands.first { $0.name == word }
            #expect(next != nil, "\(command.name)'s help names `kalends \(reference.joined(separator: " "))`")
            guard let next else { break }
            current = next
          }
          checked += 1
        }
      }
    }
    #expect(checked >= 5, "the help texts name commands (\(checked) found)")
  }

  /// The words after each `kalends` in `text` that start a command reference (`kalends erase`,
  /// `kalends compact`), up to the end of the backquoted span or line.
  static func references(in text: String) -> [[String]] {
    var found: [[String]] = []
    for span in text.components(separatedBy: "`").enumerated() where span.offset % 2 == 1 {
      let words = span.element.split(separator: " ").map(String.init)
      guard words.first == "kalends", words.count > 1 else { continue }
      found.append(Array(words.dropFirst()))
    }
    return found
  }
}
