import Kalends

extension EventStore {
  /// The live calendar `id`, or a not-found error (exit 66).
  func existingCalendar(_ id: ObjectID) throws -> EventCalendar {
    guard let calendar = try calendar(withID: id) else { throw StoreError.calendar(.calendarNotFound(id)) }
    return calendar
  }

  /// The reminder `id`, or a not-found error (exit 66).
  func existingReminder(_ id: ObjectID) throws -> Reminder {
    guard let reminder = try reminder(withID: id) else { throw StoreError.calendar(.itemNotFound(id)) }
    return reminder
  }
}
