import ArgumentParser
import Kalends
import KalendsCommandSupport
import KalendsFormats

/// What `event update` and `event remove` act on: an event, a whole series, or with
/// `--occurrence` and `--span` occurrences of a series.
struct EventTarget: ParsableArguments {
  @Argument(help: "The event's id, the start of it (4 or more hex digits), or its title.") var id: String

  @Option(
    parsing: .unconditional,
    help: ArgumentHelp(
      "The original start of one occurrence of a series (a date alone: the occurrence that day).",
      valueName: "date"))
  var occurrence: String?

  @Option(help: "With --occurrence: only this occurrence, or it and every later one.")
  var span: SpanArgument?

  /// The event or occurrence from `store`, and the span to save or remove it with: `--span` when
  /// given, which it must be when an occurrence is addressed; otherwise the whole event or series.
  func fetch(from store: EventStore) throws -> (event: Event, span: Span) {
    let event = try EventLookup.fetch(try store.eventNamed(id), occurrence: occurrence, in: store)
    if let span { return (event, span.span) }
    guard event.occurrenceDate == nil else {
      throw CLIError.invalidInput(
        "--span: event \(event.id) repeats — give --span this (only this occurrence) or --span future "
          + "(this one and every later one)")
    }
    return (event, .futureEvents)
  }
}
