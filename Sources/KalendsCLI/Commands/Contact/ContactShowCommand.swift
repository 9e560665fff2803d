import ArgumentParser
import Kalends
import KalendsCommandSupport
import KalendsFormats

extension KalendsCommand.Contact {
  /// `kalends contact show`: one contact.
  struct Show: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "show", abstract: "Print a contact.")

    @OptionGroup var global: GlobalOptions
    @Argument(help: "The contact's id, or the start of it (4 or more hex digits).") var id: String
    @Option(help: "Output format.") var format: ObjectFormat = .configured

    func run() throws {
      let store = try global.openEventStore(readOnly: true)
      let contact = try store.existingContact(try store.contactNamed(id))
      format.write(contact.jsonFields, cells: contact.tableCells)
    }
  }
}
