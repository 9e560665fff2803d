package import Kalends

/// `--span this|future`: which occurrences of a recurring event a change or removal affects.
package enum SpanArgument: String, CaseIterable {
  /// Only the occurrence: a change detaches it, a removal adds an exception date.
  case this
  /// The occurrence and every later one: a change splits the series, a removal ends it there.
  case future

  package var span: Span { self == .this ? .thisEvent : .futureEvents }
}
