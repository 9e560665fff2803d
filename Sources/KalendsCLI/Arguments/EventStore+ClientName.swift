import Kalends
import KalendsCommandSupport
import KalendsFormats

extension EventStore {
  /// The app `text` names, given to `option`: a registered app's identifier; else the one app
  /// whose display name it is (exactly, then without regard to case, then as the one name it
  /// begins); else `text` itself when it reads as an identifier (`com.example.app`: an app's
  /// records outlive nothing, but a filter by an id never registered finds none, as before). Two
  /// apps answering one step is refused (exit 65), listing them; a name no app has, not found (66).
  func clientNamed(_ text: String, option: String) throws -> String {
    let clients = try self.clients()
    if clients.contains(where: { $0.id == text }) { return text }
    let folded = text.lowercased()
    let steps: [(String, (Client) -> Bool)] = [
      ("named", { $0.name == text }),
      ("named", { $0.name.lowercased() == folded }),
      ("whose name begins with", { $0.name.lowercased().hasPrefix(folded) }),
    ]
    let found = try Self.uniqueMatch(
      text, option: option, among: clients, steps: steps, noun: "apps",
      describe: { "\(TerminalText.escaped($0.name)) (\($0.id))" }, hint: "give the app's id")
    if let found { return found.id }
    if text.contains(".") { return text }
    throw CLIError(
      message: "\(option): no app is named \"\(TerminalText.escaped(text))\" — kalends client list shows them",
      status: .notFound)
  }
}
