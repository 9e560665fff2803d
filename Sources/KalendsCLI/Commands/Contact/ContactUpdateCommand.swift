import ArgumentParser
import Kalends
import KalendsCommandSupport
import KalendsFormats

extension KalendsCommand.Contact {
  /// `kalends contact update`: changes fields of a contact.
  struct Update: ParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "update", abstract: "Change a contact's fields (the options given) and print it.")

    @OptionGroup var global: GlobalOptions
    @Argument(help: "The contact's id, or the start of it (4 or more hex digits).") var id: String
    @OptionGroup var fields: ContactFieldOptions
    @OptionGroup var change: ChangeOptions
    @Option(help: "Output format.") var format: ObjectFormat = .configured

    func run() throws {
      let store = try global.openEventStore()
      let id = try store.contactNamed(id)
      var contact = try store.existingContact(id)
      try change.checkContact(id, fetched: contact.version)
      try fields.apply(to: &contact)
      let saved = try store.contactStore.save(contact, overwrite: change.force)
      format.write(saved.jsonFields, cells: saved.tableCells)
    }
  }
}
