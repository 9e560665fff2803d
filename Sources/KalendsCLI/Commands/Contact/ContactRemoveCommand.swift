import ArgumentParser
import Kalends
import KalendsCommandSupport
import KalendsFormats

extension KalendsCommand.Contact {
  /// `kalends contact remove`: removes a contact.
  struct Remove: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "remove", abstract: "Remove a contact.")

    @OptionGroup var global: GlobalOptions
    @Argument(help: "The contact's id, or the start of it (4 or more hex digits).") var id: String
    @OptionGroup var change: ChangeOptions

    func run() throws {
      let store = try global.openEventStore()
      let id = try store.contactNamed(id)
      let contact = try store.existingContact(id)
      try change.checkContact(id, fetched: contact.version)
      try store.contactStore.remove(contact, overwrite: change.force)
      print("removed contact \(id) (\(contact.displayName))")
    }
  }
}
