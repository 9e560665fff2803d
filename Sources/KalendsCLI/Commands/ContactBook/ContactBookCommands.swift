import ArgumentParser
import Kalends
import KalendsCommandSupport
import KalendsFormats

extension KalendsCommand.Contact {
  /// `kalends contact book list`.
  struct BookList: ParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "list", abstract: "List the address books, the local one first, with how many contacts each holds.")

    @OptionGroup var global: GlobalOptions
    @Option(help: "Output format.") var format: ObjectFormat = .configured

    func run() throws {
      let store = try global.openEventStore(readOnly: true)
      let books = try store.contactStore.contactContainers()
      var counts: [ObjectID: Int] = [:]
      for book in books { counts[book.id] = try store.contactStore.contactsStamp(in: book.id).items }
      // The person is told which account a book is synced from (two accounts may both call theirs
      // "Contacts"); an app is not asked about accounts, which are the person's.
      var accounts: [ObjectID: String] = [:]
      if store.actor == .person, books.contains(where: { $0.accountID != nil }) {
        for account in try store.accounts() { accounts[account.id] = account.title }
      }
      func madeBy(_ book: ContactContainer) -> String {
        if let account = book.accountID { return "account " + TerminalText.escaped(accounts[account] ?? "") }
        return book.creator ?? (book.isLocal ? "" : "the person")
      }
      format.write(
        books,
        json: { book in
          book.jsonFields + [("items", .number(UInt64(counts[book.id] ?? 0)))]
            + (book.accountID.flatMap { accounts[$0] }.map { [("account", .string($0))] } ?? [])
        },
        columns: [
          ("ID", \.id.description), ("TITLE", \.title), ("DAV NAME", \.davName),
          ("ITEMS", { String(counts[$0.id] ?? 0) }), ("MADE BY", madeBy),
        ])
    }
  }

  /// `kalends contact book add TITLE`.
  struct BookAdd: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "add", abstract: "Add an address book and print it.")

    @OptionGroup var global: GlobalOptions
    @Argument(help: "Its title.") var title: String
    @Option(
      help: ArgumentHelp(
        "The name CardDAV clients find it at (/dav/addressbooks/NAME/); without it, its id.", valueName: "name"))
    var davName: String?
    @Option(
      help: ArgumentHelp(
        "Make it in this account (by name or id): the next sync makes it on the server (extended MKCOL).",
        valueName: "account"))
    var account: String?
    @Option(help: "Output format.") var format: ObjectFormat = .configured

    func run() throws {
      let store = try global.openEventStore()
      if let account {
        guard davName == nil else {
          throw CLIError.invalidInput("--dav-name and --account: the book is found at the server's address")
        }
        let id = try KalendsCommand.Account.named(account, in: store).id
        format.write(try store.contactStore.addAddressBook(titled: title, toAccount: id).jsonFields)
        return
      }
      let saved = try store.contactStore.save(ContactContainer(title: title, resourceName: davName))
      format.write(saved.jsonFields)
    }
  }

  /// `kalends contact book rename BOOK TITLE`.
  struct BookRename: ParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "rename", abstract: "Give an address book a new title and print it.")

    @OptionGroup var global: GlobalOptions
    @Argument(help: "The address book: its title, DAV name or id (or the start of it).") var book: String
    @Argument(help: "Its new title.") var title: String
    @Option(help: "Output format.") var format: ObjectFormat = .configured

    func run() throws {
      let store = try global.openEventStore()
      var container = try store.containerNamed(book, option: "BOOK")
      container.title = title
      format.write(try store.contactStore.save(container).jsonFields)
    }
  }

  /// `kalends contact book remove BOOK`.
  struct BookRemove: ParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "remove",
      abstract: "Remove an address book with every contact and group in it (an account's: on its server too).")

    @OptionGroup var global: GlobalOptions
    @Argument(help: "The address book: its title, DAV name or id (or the start of it).") var book: String

    func run() throws {
      let store = try global.openEventStore()
      let container = try store.containerNamed(book, option: "BOOK")
      let items = try store.contactStore.contactsStamp(in: container.id).items
      try store.contactStore.remove(container)
      print("removed address book \(container.id) (\(TerminalText.escaped(container.title))) and its \(items) cards")
    }
  }
}

extension EventStore {
  /// The address book `text` names: its id, DAV name or title exactly, else the one whose title
  /// begins with it or whose id does; exit 66 when none, 65 when several.
  func containerNamed(_ text: String, option: String) throws -> ContactContainer {
    let books = try contactStore.contactContainers()
    let folded = text.lowercased()
    let nibbles = IDPrefixScan.nibbles(text)
    let candidates: [[ContactContainer]] = [
      books.filter { $0.id.description == text || $0.davName == text || $0.title == text },
      books.filter { $0.title.lowercased().hasPrefix(folded) },
      nibbles.map { prefix in
        books.filter { IDPrefixScan.nibbles($0.id.description).map { $0.starts(with: prefix) } == true }
      } ?? [],
    ]
    guard let found = candidates.first(where: { !$0.isEmpty }) else {
      throw CLIError(
        message: "\(option): no address book is named or has an id beginning \(TerminalText.escaped(text)) — "
          + "`kalends contact book list` shows them",
        status: .notFound)
    }
    guard found.count == 1 else {
      throw CLIError.invalidInput(
        "\(option): \(found.count) address books match \(TerminalText.escaped(text)): "
          + found.prefix(5).map { "\($0.id) \(TerminalText.escaped($0.title))" }.joined(separator: ", ")
          + " — give its id")
    }
    return found[0]
  }
}
