import ArgumentParser
import Kalends
import KalendsCommandSupport
import KalendsFormats

/// `kalends event|reminder|calendar|contact|group history ID`: every version of an object.
struct ItemHistoryCommand<Kind: HistoryKind>: ParsableCommand {
  static var configuration: CommandConfiguration {
    CommandConfiguration(
      commandName: "history",
      abstract: "List every version of \(Kind.kind.article) \(Kind.kind.rawValue): who changed it, when, and how.",
      discussion: """
        The person only. Each save is a version (its position in the log), with its time, who \
        wrote it and what it was then; removals (also with a calendar) and erasures are listed too. \
        A removed \(Kind.kind.rawValue) is found by its id as a live one is. A version whose content \
        was erased says so and cannot be restored. `restore` brings a version back.
        """)
  }

  @OptionGroup var global: GlobalOptions

  @Argument(
    help:
      "Its id, or the start of it (4 or more hex digits); removed ones too (a live calendar, event or reminder also by its title)."
  ) var id: String

  @Option(help: "Output format: table or json (an array, oldest first).") var format: ObjectFormat = .configured

  func run() throws {
    // Writable: an app's refused attempt is recorded.
    let store = try global.openEventStore()
    let item = try store.itemNamed(id, Kind.kind)
    let versions = try store.history(of: item)
    // What each save changed, against the last state before it.
    var changed: [LogPosition: [String]] = [:]
    var first: LogPosition?
    var last: ItemState?
    for version in versions {
      guard let state = version.state else { continue }
      changed[version.position] = state.changedFields(from: last)
      if last == nil { first = version.position }
      last = state
    }
    let by = try PrincipalWords(store)
    format.write(
      versions,
      json: { version in
        version.jsonFields + [("changed", changed[version.position].map { .array($0.map { .string($0) }) } ?? .null)]
      },
      columns: [
        ("VERSION", { $0.position.description }), ("TIME", { $0.timestamp.description }),
        ("BY", { TerminalText.escaped(by.text($0.principal)) }), ("WHAT", \.actionText),
        ("TITLE", { TerminalText.escaped($0.state?.title ?? "") }),
        // The first state is the whole object: the table leaves it blank, the JSON names every field.
        (
          "CHANGED",
          { version in
            version.position == first ? "" : (changed[version.position] ?? []).joined(separator: ", ")
          }
        ),
      ])
  }
}

extension ErasableItem.Kind {
  /// `a` or `an`.
  var article: String { self == .event ? "an" : "a" }
}
