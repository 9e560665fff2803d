import ArgumentParser
import Kalends
import KalendsCommandSupport
import KalendsFormats

extension KalendsCommand.Group {
  /// `kalends group add-member GROUP CONTACT`.
  struct AddMember: ParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "add-member", abstract: "Put a contact in a group (a save of the contact).")

    @OptionGroup var global: GlobalOptions
    @Argument(help: "The group: its name (or the start of it), or its id (or the start of it).")
    var group: String
    @Argument(help: "The contact's id, or the start of it (4 or more hex digits).") var contact: String
    @Option(help: "Output format.") var format: ObjectFormat = .configured

    func run() throws {
      let store = try global.openEventStore()
      let saved = try store.contactStore.addMember(
        try store.contactNamed(contact, option: "CONTACT"), to: try store.groupNamed(group, option: "GROUP"))
      format.write(saved.jsonFields, cells: saved.tableCells)
    }
  }

  /// `kalends group remove-member GROUP CONTACT`.
  struct RemoveMember: ParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "remove-member", abstract: "Take a contact out of a group (a save of the contact).")

    @OptionGroup var global: GlobalOptions
    @Argument(help: "The group: its name (or the start of it), or its id (or the start of it).")
    var group: String
    @Argument(help: "The contact's id, or the start of it (4 or more hex digits).") var contact: String
    @Option(help: "Output format.") var format: ObjectFormat = .configured

    func run() throws {
      let store = try global.openEventStore()
      let saved = try store.contactStore.removeMember(
        try store.contactNamed(contact, option: "CONTACT"), from: try store.groupNamed(group, option: "GROUP"))
      format.write(saved.jsonFields, cells: saved.tableCells)
    }
  }
}
