import ArgumentParser
import Kalends

/// `kalends event remove`: removes an event, a series, or occurrences of it.
struct EventRemoveCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "remove",
    abstract: "Remove an event, or occurrences of a series with --occurrence and --span.",
    discussion: """
      On a series, --occurrence names one occurrence and --span says what goes: this (it becomes an \
      exception date) or future (the series ends before it). Without --occurrence the whole series goes.
      """)

  @OptionGroup var global: GlobalOptions

  @Argument(help: "The event's id.") var id: String

  @Option(help: ArgumentHelp("The occurrence's original start, to remove occurrences of a series.", valueName: "date"))
  var occurrence: String?

  @Option(help: "With --occurrence: remove only this occurrence, or it and every later one.")
  var span: SpanArgument?

  @OptionGroup var change: ChangeOptions

  func run() throws {
    let id = try ObjectID(argument: id)
    let store = try global.openEventStore()
    let event = try EventLookup.fetch(id, occurrence: occurrence, in: store)
    let span = try SpanArgument.span(span, for: event)
    try change.check(id, fetched: event.version)
    try store.remove(event, span: span, overwrite: change.force)
    let date = (event.occurrenceDate ?? event.start).map(event.text(of:)) ?? "?"
    if try store.event(withID: id) == nil {
      print("removed event \(id)")
    } else if span == .thisEvent {
      print("removed the occurrence \(date) of event \(id) (now an exception date)")
    } else {
      print("removed the occurrences of event \(id) from \(date) on (the series now ends before it)")
    }
  }
}
