import Foundation
import Kalends

/// Helpers shared by the iCalendar tests: importing text, the window they compare, the fixtures,
/// and the store state two imports must agree on.
enum ICalendarTesting {
  /// 2025-01-01T00:00:00Z …
  static let from: Int64 = 1_735_689_600
  /// … 2028-01-01T00:00:00Z.
  static let to: Int64 = 1_830_297_600

  /// The corpus of real-world-shaped files in `Tests/Fixtures/iCalendar`.
  static let fixtures = RecurrenceOracle.repositoryRoot.appendingPathComponent("Tests/Fixtures/iCalendar")

  static func fixture(_ name: String) throws -> [UInt8] {
    Array(try Data(contentsOf: fixtures.appendingPathComponent(name + ".ics")))
  }

  /// Imports `bytes` into a new calendar and returns its id.
  @discardableResult
  static func importNew(_ bytes: [UInt8], into store: EventStore, title: String = "Imported") throws -> ObjectID {
    try store.importICalendar(bytes, into: .newCalendar(EventCalendar(title: title))).calendarID
  }

  /// The calendar's events and reminders with what differs between two imports of the same data
  /// (identifiers, versions, modification times, creation times below a second) blanked out.
  static func state(of store: EventStore, calendar: ObjectID) throws -> [String] {
    var items: [String] = []
    for event in try store.events(inCalendar: calendar) {
      var detached: [String] = []
      for (date, occurrence) in event.detachedOccurrences.sorted(by: { $0.key < $1.key }) {
        detached.append("\(date): \(normalized(occurrence))")
      }
      items.append("\(normalized(event)) detached: \(detached)")
    }
    for reminder in try store.reminders(inCalendars: [calendar]) {
      var copy = reminder
      copy.calendarID = nil
      items.append(
        "\(copy.externalID) \(copy.title) \(String(describing: copy.notes)) \(String(describing: copy.dueDate)) "
          + "\(copy.isDueDateOnly) \(String(describing: copy.timeZone)) \(copy.priority) \(copy.isCompleted) "
          + "\(String(describing: copy.completionDate.map { $0.rawValue / 1_000_000 })) \(copy.recurrenceRules) "
          + "\(copy.alarms) \(copy.sequence) \(copy.additionalProperties) "
          + "\(String(describing: copy.creationDate.map { $0.rawValue / 1_000_000 }))")
    }
    return items.sorted()
  }

  private static func normalized(_ event: Event) -> String {
    "\(event.externalID) \(event.title) \(String(describing: event.start)) \(String(describing: event.end)) "
      + "\(event.isAllDay) \(String(describing: event.timeZone)) \(String(describing: event.location)) "
      + "\(String(describing: event.notes)) \(String(describing: event.url)) \(event.availability) \(event.status) "
      + "\(event.alarms) \(event.categories) \(event.sequence) \(event.additionalProperties) "
      + "\(event.recurrenceRules) \(event.exceptionDates.sorted()) \(event.recurrenceDates.sorted()) "
      + "\(String(describing: event.occurrenceDate)) \(event.isDetached) "
      + "\(String(describing: event.creationDate.map { $0.rawValue.floorDividedBy1e6 }))"
  }
}

extension Int64 {
  fileprivate var floorDividedBy1e6: Int64 { self >= 0 ? self / 1_000_000 : (self - 999_999) / 1_000_000 }
}
