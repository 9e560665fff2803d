import ArgumentParser
import Kalends
import KalendsCommandSupport
import KalendsFormats

extension KalendsCommand.Contact {
  /// `kalends contact show`: one contact.
  struct Show: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "show", abstract: "Print a contact.")

    @OptionGroup var global: GlobalOptions
    @Argument(help: "The contact's id.") var id: String
    @Option(help: "Output format.") var format: ObjectFormat = .table

    func run() throws {
      let contact = try global.openEventStore(readOnly: true).existingContact(try ObjectID(argument: id))
      format.write(contact.jsonFields, cells: contact.tableCells)
    }
  }
}
