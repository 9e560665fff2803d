import ArgumentParser
import Kalends
import KalendsCommandSupport
import KalendsFormats

extension KalendsCommand.Contact {
  /// `kalends contact list`: every contact, or a group's.
  struct List: ParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "list", abstract: "List contacts by family name, then given name.")

    @OptionGroup var global: GlobalOptions
    @Option(help: ArgumentHelp("Only the members of this group.", valueName: "id")) var group: String?
    @Option(
      help: ArgumentHelp("Only the contacts of this address book: its title, DAV name or id.", valueName: "book"))
    var book: String?
    @Option(help: "Output format.") var format: ObjectFormat = .configured

    func run() throws {
      let store = try global.openEventStore(readOnly: true)
      let search: ContactSearch = try group.map { .group(try ObjectID(argument: $0, option: "--group")) } ?? .all
      var contacts = try store.contactStore.contacts(matching: search)
      if let book {
        let container = try store.containerNamed(book, option: "--book").id
        contacts = contacts.filter { $0.containerID == container }
      }
      ContactTable.write(contacts, format)
    }
  }
}

/// How lists of contacts print.
enum ContactTable {
  static func write(_ contacts: [Contact], _ format: ObjectFormat) {
    format.write(
      contacts, json: \.jsonFields,
      columns: [
        ("ID", \.id.description),
        ("NAME", \.displayName),
        ("ORGANIZATION", { $0.organizationName ?? "" }),
        ("EMAIL", { $0.emailAddresses.first?.value ?? "" }),
        ("PHONE", { $0.phoneNumbers.first?.value ?? "" }),
      ])
  }
}
