import ArgumentParser
import Kalends
import KalendsCommandSupport
import KalendsFormats

extension KalendsCommand.Group {
  /// `kalends group add`: a new group.
  struct Add: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "add", abstract: "Add a group and print it.")

    @OptionGroup var global: GlobalOptions
    @Argument(help: "The group's name.") var name: String
    @Option(help: "Output format.") var format: ObjectFormat = .configured

    func run() throws {
      let saved = try global.openEventStore().contactStore.save(ContactGroup(name: name))
      format.write(saved.jsonFields)
    }
  }
}
