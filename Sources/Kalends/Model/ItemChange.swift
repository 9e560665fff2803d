/// What a save did, as recorded in the `change` field of `calendarSaved`, `eventSaved` and
/// `reminderSaved` records (docs/log-format.md): the record holds the full new state, this says why.
public enum ItemChange: UInt64, Hashable, Sendable, CaseIterable, CustomStringConvertible {
  /// The object was created.
  case created = 1
  /// The object (a single event, or a whole series) was changed.
  case modified = 2
  /// One occurrence of a series was changed on its own (detached); `occurrenceDate` names it.
  case occurrenceDetached = 3
  /// One occurrence of a series was removed (an exception date added); `occurrenceDate` names it.
  case occurrenceRemoved = 4
  /// The occurrences from `occurrenceDate` on were removed: the series now ends before it.
  case futureOccurrencesRemoved = 5
  /// The series was split at `occurrenceDate`: it now ends before it, and a new series (whose
  /// record follows in the same transaction, with `splitFrom`) continues from there.
  case seriesSplit = 6

  public var description: String {
    switch self {
    case .created: "created"
    case .modified: "modified"
    case .occurrenceDetached: "occurrenceDetached"
    case .occurrenceRemoved: "occurrenceRemoved"
    case .futureOccurrencesRemoved: "futureOccurrencesRemoved"
    case .seriesSplit: "seriesSplit"
    }
  }
}
