import ArgumentParser
import Foundation
import Kalends
import KalendsCommandSupport
import KalendsFormats

extension KalendsCommand.Contact {
  /// `kalends contact pick --for APP`: the contact picker.
  struct Pick: ParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "pick",
      abstract: "Pick one contact for an app, as the contact picker does: handed once, no access granted.",
      discussion: """
        The person picks --contact, or one from the list shown on the terminal; the app is handed \
        that contact (printed) and the pick is recorded as contactPicked. The app's access to \
        contacts does not change.
        """)

    @OptionGroup var global: GlobalOptions
    @Option(name: .customLong("for"), help: ArgumentHelp("The app the contact is picked for.", valueName: "app"))
    var app: String
    @Option(help: ArgumentHelp("The contact picked (without it, the person picks on the terminal).", valueName: "id"))
    var contact: String?
    @Option(help: "Output format.") var format: ObjectFormat = .configured

    func run() throws {
      if global.client != nil { throw CLIError.invalidInput("the person picks: drop --as and name the app with --for") }
      let session = try global.openEventStore().session(for: app)
      let picked: Kalends.Contact?
      if let contact {
        picked = try session.contactStore.pickContact(
          using: FixedContactPicker(try ObjectID(argument: contact, option: "--contact")))
      } else {
        guard isatty(STDIN_FILENO) == 1 else {
          throw CLIError.invalidInput("there is no terminal to pick on — pass --contact ID")
        }
        picked = try session.contactStore.pickContact(using: TerminalContactPicker())
      }
      guard let picked else {
        FileHandle.standardError.write(Data("nothing picked\n".utf8))
        return
      }
      format.write(picked.jsonFields, cells: picked.tableCells)
    }
  }
}

/// The person picks a contact by its number in a list on the terminal.
struct TerminalContactPicker: ContactPicker {
  func pick(for client: Client, from contacts: [Kalends.Contact]) -> ObjectID? {
    var text = "Pick a contact for “\(client.name)” (it gets that card only):\n"
    for (index, contact) in contacts.enumerated() { text += "  \(index + 1). \(contact.displayName)\n" }
    text += "number, or empty to cancel: "
    FileHandle.standardError.write(Data(text.utf8))
    guard let line = readLine(), let number = Int(line.trimmingCharacters(in: .whitespaces)),
      contacts.indices.contains(number - 1)
    else { return nil }
    return contacts[number - 1].id
  }
}
