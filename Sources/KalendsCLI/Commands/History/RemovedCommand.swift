import ArgumentParser
import Foundation
import Kalends
import KalendsCommandSupport
import KalendsFormats

extension KalendsCommand {
  /// `kalends removed`: the events and reminders removed lately, to bring back (Calendar's
  /// "Recently Deleted").
  struct Removed: ParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "removed",
      abstract: "List the events and reminders removed lately, newest first, to bring back with restore.",
      discussion: """
        Each event or reminder removed on its own (not with its calendar) at or after --since and not \
        restored since: when, by whom, its title at its last save, its calendar, and its id. \
        `kalends event restore ID` (or `reminder restore ID`) brings it back as it was last saved. \
        Read from the log, back from its head. Owner-only.
        """)

    @OptionGroup var global: GlobalOptions

    @Option(help: ArgumentHelp("From this instant, or this far back (30d, 12h).", valueName: "date"))
    var since: String = "30d"

    @Option(help: "Output format.") var format: ObjectFormat = .configured

    func run() throws {
      let store = try global.openEventStore()
      let from = try AuditTime.parse(since, option: "--since")
      let removed = try store.removedItems(since: from)
      let titles = Dictionary(
        (try? store.calendars())?.map { ($0.id, $0.title) } ?? [], uniquingKeysWith: { first, _ in first })
      let zone = LocalZone.current
      let by = try PrincipalWords(store)
      format.write(
        removed,
        json: { item in
          [
            ("kind", .string(item.item.kind.rawValue)), ("id", .string(item.item.id.description)),
            ("title", item.title.map { .string($0) } ?? .null),
            ("calendarId", item.calendarID.map { .string($0.description) } ?? .null),
            ("removed", .string(item.removed.description)), ("actor", item.principal.json),
            ("version", .number(Double(item.position.rawValue))),
          ]
        },
        columns: [
          ("REMOVED", { AuditTimeline.text($0.removed, in: zone) }),
          ("KIND", { $0.item.kind.rawValue }),
          ("TITLE", { TerminalText.escaped($0.title ?? "(content erased)") }),
          ("CALENDAR", { TerminalText.escaped($0.calendarID.flatMap { titles[$0] } ?? "") }),
          ("BY", { TerminalText.escaped(by.text($0.principal)) }),
          ("ID", { $0.item.id.description }),
        ])
    }
  }
}
