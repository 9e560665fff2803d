import ArgumentParser
import Kalends
import KalendsCommandSupport
import KalendsFormats

extension KalendsCommand.Contact {
  /// `kalends contact add`: a new contact.
  struct Add: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "add", abstract: "Add a contact and print it.")

    @OptionGroup var global: GlobalOptions
    @OptionGroup var fields: ContactFieldOptions
    @Option(
      help: ArgumentHelp(
        "The address book to add it to: its title, DAV name or id; by default the local one.", valueName: "book"))
    var book: String?
    @Option(help: "Output format.") var format: ObjectFormat = .configured

    func run() throws {
      let store = try global.openEventStore()
      var contact = Kalends.Contact()
      try fields.apply(to: &contact)
      if let book { contact.containerID = try store.containerNamed(book, option: "--book").id }
      let saved = try store.contactStore.save(contact)
      format.write(saved.jsonFields, cells: saved.tableCells)
    }
  }
}
