import ArgumentParser
import Kalends
import KalendsCommandSupport
import KalendsFormats

/// `kalends event|reminder|calendar|contact|group restore ID [--version N]`: saves an earlier
/// version again.
struct ItemRestoreCommand<Kind: HistoryKind>: ParsableCommand {
  static var configuration: CommandConfiguration {
    CommandConfiguration(
      commandName: "restore",
      abstract:
        "Bring back an earlier version of \(Kind.kind.article) \(Kind.kind.rawValue), or a removed one, and print it.",
      discussion: """
        The person only. The version's state is saved again as a new fact (history is not \
        rewritten): a removed \(Kind.kind.rawValue) is back under its id. Without --version: a \
        removed one comes back as it was last saved; a live one goes back to the version before its \
        last change. \(Kind.kind.restoreNote)Erased content stays erased: such a version is refused \
        (exit 67). `history` lists the versions.
        """)
  }

  @OptionGroup var global: GlobalOptions

  @Argument(
    help:
      "Its id, or the start of it (4 or more hex digits); removed ones too (a live calendar, event or reminder also by its title)."
  ) var id: String

  @Option(help: ArgumentHelp("The version to bring back (its VERSION in `history`).", valueName: "position"))
  var version: UInt64?

  @Option(help: "Output format.") var format: ObjectFormat = .configured

  func run() throws {
    let store = try global.openEventStore()
    let item = try store.itemNamed(id, Kind.kind)
    let chosen: LogPosition
    if let version {
      chosen = LogPosition(version)
    } else {
      chosen = try Self.defaultVersion(of: item, try store.history(of: item))
    }
    let restored = try store.restore(item, version: chosen)
    format.write(restored.jsonFields, cells: restored.tableCells)
  }

  /// For a removed object its last version with content; for a live one the version with content
  /// before its current one.
  static func defaultVersion(of item: ErasableItem, _ versions: [ItemVersion]) throws -> LogPosition {
    guard let last = versions.last else { throw CLIError(message: "no \(item) — check the id", status: .notFound) }
    let saves = versions.filter { if case .saved = $0.action { true } else { false } }
    let isLive = if case .saved = last.action { true } else { false }
    let candidates = isLive ? saves.dropLast() : saves[...]
    guard let version = candidates.last(where: \.isRestorable) else {
      throw CLIError(
        message: "\(item) has no earlier version with its content to bring back — `history` lists its versions",
        status: .conflict)
    }
    return version.position
  }
}

extension ErasableItem.Kind {
  /// What a restore of this kind brings back, and what not.
  var restoreNote: String {
    switch self {
    case .calendar: "A calendar comes back without the items removed with it: restore each of them. "
    case .event: "An event comes back whole (a series with its changed occurrences) into the calendar it was in. "
    case .reminder: "A reminder comes back into the list it was in. "
    case .contact: "A contact comes back in the groups it was in that are still there. "
    case .group: "A group comes back without members: add them again. "
    }
  }
}
