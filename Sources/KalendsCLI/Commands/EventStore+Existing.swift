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

  /// The contact `id`, or a not-found error (exit 66).
  func existingContact(_ id: ObjectID) throws -> Contact {
    guard let contact = try contactStore.contact(withID: id) else { throw StoreError.contact(.contactNotFound(id)) }
    return contact
  }

  /// The group `id`, or a not-found error (exit 66).
  func existingGroup(_ id: ObjectID) throws -> ContactGroup {
    guard let group = try contactStore.group(withID: id) else { throw StoreError.contact(.groupNotFound(id)) }
    return group
  }
}
