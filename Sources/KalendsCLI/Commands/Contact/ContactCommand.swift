import ArgumentParser

extension KalendsCommand {
  /// `kalends contact`: the contacts book.
  struct Contact: ParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "contact",
      abstract:
        "Manage the contacts book: add, show, list, search, change and remove contacts; vCard files in and out.",
      subcommands: [
        Add.self, List.self, Show.self, Search.self, Update.self, Remove.self, Import.self, Export.self, Pick.self,
        Book.self,
        ItemHistoryCommand<ContactHistoryKind>.self, ItemRestoreCommand<ContactHistoryKind>.self,
      ]
    )
  }
}
