import ArgumentParser
import Kalends
import KalendsCommandSupport
import KalendsFormats

extension KalendsCommand.Calendar {
  /// `kalends calendar list`: every calendar, by title.
  struct List: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "list", abstract: "List calendars by title.")

    /// `--for`.
    enum Kind: String, CaseIterable, ExpressibleByArgument {
      case events, reminders
    }

    @OptionGroup var global: GlobalOptions

    @Option(name: .customLong("for"), help: "Only the calendars that hold this kind of item.") var kind: Kind?

    @Option(help: "Output format.") var format: ObjectFormat = .configured

    func run() throws {
      let store = try global.openEventStore(readOnly: true)
      let calendars: [EventCalendar] =
        switch kind {
        case .events: try store.calendars(for: .events)
        case .reminders: try store.calendars(for: .reminders)
        case nil: try Self.visibleCalendars(store)
        }
      format.write(
        calendars, json: \.jsonFields,
        columns: [
          ("ID", \.id.description),
          ("HOLDS", { $0.entityTypeNames.joined(separator: ", ") }),
          ("COLOR", \.color),
          ("TITLE", { $0.title + ($0.allowsContentModifications ? "" : " (read-only)") }),
        ])
    }

    /// Without `--for`, the calendars of every kind the session may list: an app may hold access to
    /// one of the two services only. Refused only when it may list neither; a kind it may not list is
    /// recorded as a refusal either way, since the app asked for it.
    static func visibleCalendars(_ store: EventStore) throws -> [EventCalendar] {
      var found: [ObjectID: EventCalendar] = [:]
      var refusal: StoreError?
      var listed = false
      for types: EntityTypes in [.events, .reminders] {
        do {
          for calendar in try store.calendars(for: types) { found[calendar.id] = calendar }
          listed = true
        } catch {
          // The compiler crashes on a pattern binding the case's values here (Swift 6.3.1).
          guard case .access(.accessDenied) = error else { throw error }
          refusal = refusal ?? error
        }
      }
      if !listed, let refusal { throw refusal }
      return found.values.sorted { ($0.title, $0.id) < ($1.title, $1.id) }
    }
  }
}
