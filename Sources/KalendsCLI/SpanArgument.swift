import ArgumentParser
import Kalends

/// `--span this|future`: which occurrences of a recurring event a change or removal affects.
enum SpanArgument: String, CaseIterable, ExpressibleByArgument {
  /// Only the occurrence: a change detaches it, a removal adds an exception date.
  case this
  /// The occurrence and every later one: a change splits the series, a removal ends it there.
  case future

  var span: Span { self == .this ? .thisEvent : .futureEvents }

  /// The span of a change to `event`: `--span` when given, which it must be when an occurrence of
  /// a series is addressed; otherwise the whole event or series.
  static func span(_ argument: SpanArgument?, for event: Event) throws(CLIError) -> Span {
    if let argument { return argument.span }
    guard event.occurrenceDate == nil else {
      throw .invalidInput(
        "--span: event \(event.id) repeats — give --span this (only this occurrence) or --span future "
          + "(this one and every later one)")
    }
    return .futureEvents
  }
}
