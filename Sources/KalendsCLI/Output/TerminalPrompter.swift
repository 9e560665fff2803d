import Foundation
import Kalends
import KalendsCommandSupport
import KalendsFormats

/// Asks the person on the terminal, as iOS's permission alert does.
struct TerminalPrompter: ConsentPrompter {
  func answer(_ request: ConsentRequest) -> ConsentAnswer? {
    let what = request.level == .full ? "full access to your \(request.service)" : "to add events to your calendars"
    let choices =
      request.service == .calendars && request.level == .full
      ? "allow/write-only/deny" : request.service == .contacts ? "allow/limited/deny" : "allow/deny"
    var text = "“\(TerminalText.escaped(request.client.name))” would like \(what)"
    if request.isUpgrade { text += " (it can already add events)" }
    text += ".\n  \(TerminalText.escaped(request.usageDescription))\n[\(choices)]? "
    FileHandle.standardError.write(Data(text.utf8))
    while let line = readLine() {
      if let answer = ConsentAnswer(rawValue: line.trimmingCharacters(in: .whitespaces).lowercased()) { return answer }
      FileHandle.standardError.write(Data("please answer \(choices): ".utf8))
    }
    return .deny
  }

  /// After "limited": the ids of the contacts the person chooses, on one line.
  func chosenContacts(_ request: ConsentRequest) -> [ObjectID] {
    FileHandle.standardError.write(
      Data(
        "Which contacts may “\(TerminalText.escaped(request.client.name))” use? Their ids, separated by spaces: ".utf8))
    guard let line = readLine() else { return [] }
    return line.split(whereSeparator: { $0 == " " || $0 == "," }).compactMap { ObjectID(String($0)) }
  }
}
