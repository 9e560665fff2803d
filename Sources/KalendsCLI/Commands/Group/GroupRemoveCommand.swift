import ArgumentParser
import Kalends
import KalendsCommandSupport
import KalendsFormats

extension KalendsCommand.Group {
  /// `kalends group remove`: removes a group; its members stay.
  struct Remove: ParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "remove", abstract: "Remove a group (its members stay, outside it).")

    @OptionGroup var global: GlobalOptions
    @Argument(help: "The group: its name (or the start of it), or its id (or the start of it).") var id: String
    @OptionGroup var change: ChangeOptions

    func run() throws {
      let store = try global.openEventStore()
      let id = try store.groupNamed(id)
      let group = try store.existingGroup(id)
      try change.checkContact(id, fetched: group.version)
      try store.contactStore.remove(group, overwrite: change.force)
      print("removed group \(id) (\(group.name))")
    }
  }
}
