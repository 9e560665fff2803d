import ArgumentParser
import Kalends

/// `kalends calendar list`: every calendar, by title.
struct CalendarListCommand: ParsableCommand {
  static let configuration = CommandConfiguration(commandName: "list", abstract: "List calendars by title.")

  /// `--for`.
  enum Kind: String, CaseIterable, ExpressibleByArgument {
    case events, reminders
  }

  @OptionGroup var global: GlobalOptions

  @Option(name: .customLong("for"), help: "Only the calendars that hold this kind of item.") var kind: Kind?

  @Option(help: "Output format.") var format: ObjectFormat = .table

  func run() throws {
    let types: EntityTypes =
      switch kind {
      case .events: .events
      case .reminders: .reminders
      case nil: [.events, .reminders]
      }
    let calendars = try global.openEventStore(readOnly: true).calendars(for: types)
    format.write(
      calendars, json: \.jsonFields,
      columns: [
        ("ID", \.id.description),
        ("HOLDS", { $0.entityTypeNames.joined(separator: ", ") }),
        ("COLOR", \.color),
        ("TITLE", { $0.title + ($0.allowsContentModifications ? "" : " (read-only)") }),
      ])
  }
}
