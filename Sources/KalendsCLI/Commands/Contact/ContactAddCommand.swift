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
    @Option(help: "Output format.") var format: ObjectFormat = .configured

    func run() throws {
      var contact = Kalends.Contact()
      try fields.apply(to: &contact)
      let saved = try global.openEventStore().save(contact)
      format.write(saved.jsonFields, cells: saved.tableCells)
    }
  }
}
