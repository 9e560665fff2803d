import ArgumentParser
import Kalends
import KalendsCommandSupport
import KalendsFormats

extension KalendsCommand.Group {
  /// `kalends group rename`: a group's new name.
  struct Rename: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "rename", abstract: "Rename a group and print it.")

    @OptionGroup var global: GlobalOptions
    @Argument(help: "The group: its name (or the start of it), or its id (or the start of it).") var id: String
    @Argument(help: "Its new name.") var name: String
    @OptionGroup var change: ChangeOptions
    @Option(help: "Output format.") var format: ObjectFormat = .configured

    func run() throws {
      let store = try global.openEventStore()
      let id = try store.groupNamed(id)
      var group = try store.existingGroup(id)
      try change.checkContact(id, fetched: group.version)
      group.name = name
      format.write(try store.contactStore.save(group, overwrite: change.force).jsonFields)
    }
  }
}
