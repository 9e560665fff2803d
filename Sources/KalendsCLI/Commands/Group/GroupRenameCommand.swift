import ArgumentParser
import Kalends
import KalendsCommandSupport
import KalendsFormats

extension KalendsCommand.Group {
  /// `kalends group rename`: a group's new name.
  struct Rename: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "rename", abstract: "Rename a group and print it.")

    @OptionGroup var global: GlobalOptions
    @Argument(help: "The group's id.") var id: String
    @Argument(help: "Its new name.") var name: String
    @OptionGroup var change: ChangeOptions
    @Option(help: "Output format.") var format: ObjectFormat = .table

    func run() throws {
      let id = try ObjectID(argument: id)
      let store = try global.openEventStore()
      var group = try store.existingGroup(id)
      try change.checkContact(id, fetched: group.version)
      group.name = name
      format.write(try store.save(group, overwrite: change.force).jsonFields)
    }
  }
}
