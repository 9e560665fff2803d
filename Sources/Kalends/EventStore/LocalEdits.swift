/// Carries the fields a caller changed on a fetched copy (where it differs from the state it was
/// fetched at) over to a newer state: what ``EventStore/refresh(_:)-(Event)`` keeps.
struct LocalEdits<Value> {
  private let fields: [(_ local: Value, _ base: Value, _ latest: inout Value) -> Void]

  init(_ fields: [(Value, Value, inout Value) -> Void]) { self.fields = fields }

  /// `latest` with every field of `local` that differs from `base`.
  func apply(local: Value, base: Value, to latest: Value) -> Value {
    var merged = latest
    for field in fields { field(local, base, &merged) }
    return merged
  }

  static func field<T: Equatable>(_ path: WritableKeyPath<Value, T>) -> (Value, Value, inout Value) -> Void {
    { local, base, latest in
      if local[keyPath: path] != base[keyPath: path] { latest[keyPath: path] = local[keyPath: path] }
    }
  }
}

extension LocalEdits where Value == Event {
  /// Every field a caller may set on an event.
  static var event: LocalEdits {
    LocalEdits([
      field(\.calendarID), field(\.externalID), field(\.title), field(\.start), field(\.end), field(\.isAllDay),
      field(\.timeZone), field(\.location), field(\.notes), field(\.url), field(\.availability), field(\.status),
      field(\.alarms), field(\.categories), field(\.sequence), field(\.additionalProperties), field(\.recurrenceRules),
      field(\.exceptionDates), field(\.recurrenceDates), field(\.clientProperties),
    ])
  }
}

extension LocalEdits where Value == Reminder {
  /// Every field a caller may set on a reminder.
  static var reminder: LocalEdits {
    LocalEdits([
      field(\.calendarID), field(\.externalID), field(\.title), field(\.notes), field(\.startDate), field(\.dueDate),
      field(\.isDueDateOnly),
      field(\.timeZone), field(\.priority), field(\.isCompleted), field(\.completionDate), field(\.recurrenceRules),
      field(\.alarms), field(\.sequence), field(\.additionalProperties), field(\.clientProperties),
    ])
  }
}

extension LocalEdits where Value == EventCalendar {
  /// Every field a caller may set on a calendar.
  static var calendar: LocalEdits {
    LocalEdits([
      field(\.title), field(\.color), field(\.source), field(\.allowedEntityTypes), field(\.allowsContentModifications),
      field(\.clientProperties),
    ])
  }
}
