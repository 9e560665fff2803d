import ArgumentParser

extension KalendsCommand {
  /// `kalends group`: groups of contacts.
  struct Group: ParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "group",
      abstract: "Add, list, rename and remove groups of contacts, and change who is in them.",
      discussion: "A group's members are listed with `kalends contact list --group ID`.",
      subcommands: [
        Add.self, List.self, Rename.self, Remove.self, AddMember.self, RemoveMember.self,
        ItemHistoryCommand<GroupHistoryKind>.self, ItemRestoreCommand<GroupHistoryKind>.self,
      ]
    )
  }
}
