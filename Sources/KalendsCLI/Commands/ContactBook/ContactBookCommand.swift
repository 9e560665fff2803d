import ArgumentParser

extension KalendsCommand.Contact {
  /// `kalends contact book`: the address books (contacts containers).
  struct Book: ParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "book",
      abstract: "List, add, rename and remove address books (the containers contacts live in).",
      discussion: """
        Every store has its local address book, `Contacts` (at /dav/addressbooks/contacts/ for CardDAV \
        clients); others are made here or by a CardDAV client (extended MKCOL). A contact stays in the \
        book it was added to: `kalends contact add --book NAME`, `kalends contact list --book NAME`.
        """,
      subcommands: [BookList.self, BookAdd.self, BookRename.self, BookRemove.self]
    )
  }
}
