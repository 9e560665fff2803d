import ArgumentParser
import Kalends
import KalendsCommandSupport
import KalendsFormats

extension KalendsCommand.Contact {
  /// `kalends contact search`: contacts by name, email or phone prefix.
  struct Search: ParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "search",
      abstract: "Find contacts by a prefix of their name words, email addresses or phone numbers.",
      discussion: """
        --by name (the default): every word of TEXT starts a word of the given, middle, family, \
        nick, organization or phonetic names, compared without case or accents ("jos" finds José). \
        --by email: an address starts with TEXT (without case). --by phone: a number's digits start \
        with TEXT's digits ("+1 555" finds "(1) 555-0100"). Answered from the search index.
        """)

    enum Field: String, ExpressibleByArgument, CaseIterable { case name, email, phone }

    @OptionGroup var global: GlobalOptions
    @Argument(help: "The prefix.") var text: String
    @Option(help: "What to search.") var by: Field = .name
    @Option(help: "Output format.") var format: ObjectFormat = .configured

    func run() throws {
      let search: ContactSearch =
        switch by {
        case .name: .name(text)
        case .email: .emailAddress(text)
        case .phone: .phoneNumber(text)
        }
      ContactTable.write(try global.openEventStore(readOnly: true).contactStore.contacts(matching: search), format)
    }
  }
}
