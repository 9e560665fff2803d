import ArgumentParser
import Kalends
import KalendsCommandSupport
import KalendsFormats

extension KalendsCommand.Contact {
  /// `kalends contact import`: a vCard file, in one transaction.
  struct Import: ParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "import",
      abstract: "Import a vCard (.vcf) file, 3.0 or 4.0: all of it in one transaction, or nothing.",
      discussion: """
        A card whose UID is already in the store replaces that contact's fields; a card equal to \
        the stored one writes nothing, so importing a file again changes nothing. Groups (vCard \
        4.0 KIND:group, or Apple's X-ADDRESSBOOKSERVER-KIND in 3.0) are created and their MEMBER \
        lines set who is in them. A file with an error imports nothing: the error names the line \
        (exit status 65). FILE - reads standard input.
        """)

    @OptionGroup var global: GlobalOptions
    @Argument(help: ArgumentHelp("The .vcf file, or - for standard input.", valueName: "file")) var file: String
    @Option(help: "Output format.") var format: ObjectFormat = .configured

    func run() throws {
      let bytes = try KalendsCommand.Import.read(file)
      let result = try global.openEventStore().contactStore.importVCards(Array(bytes))
      format.write([
        ("contactsCreated", .number(result.contactsCreated)),
        ("contactsUpdated", .number(result.contactsUpdated)),
        ("contactsUnchanged", .number(result.contactsUnchanged)),
        ("groupsCreated", .number(result.groupsCreated)),
        ("groupsUpdated", .number(result.groupsUpdated)),
        ("groupsUnchanged", .number(result.groupsUnchanged)),
        ("unknownMembers", .number(result.unknownMembers)),
      ])
    }
  }
}
