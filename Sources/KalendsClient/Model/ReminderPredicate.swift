public import Foundation

/// Which reminders ``EventStore/reminders(matching:)`` fetches: EventKit's
/// `predicateForIncompleteReminders(withDueDateStarting:ending:calendars:)` and
/// `predicateForCompletedReminders(withCompletionDateStarting:ending:calendars:)`.
public struct ReminderPredicate: Sendable, Hashable {
  let completed: Bool
  let start: Date?
  let end: Date?
  let calendars: [String]?
  let timeZone: TimeZone

  /// The incomplete reminders due in `[start, end)`, by due date; with neither bound, every
  /// incomplete reminder, those without a due date too. Floating and date-only due dates are
  /// placed in `timeZone`. Both bounds or neither.
  public static func incomplete(
    dueFrom start: Date? = nil, to end: Date? = nil, calendars: [String]? = nil, timeZone: TimeZone = .current
  ) -> ReminderPredicate {
    ReminderPredicate(completed: false, start: start, end: end, calendars: calendars, timeZone: timeZone)
  }

  /// The reminders completed in `[start, end)`, most recent first; every completed one without
  /// bounds. Both bounds or neither.
  public static func completed(
    from start: Date? = nil, to end: Date? = nil, calendars: [String]? = nil
  ) -> ReminderPredicate {
    ReminderPredicate(completed: true, start: start, end: end, calendars: calendars, timeZone: .current)
  }

  private init(completed: Bool, start: Date?, end: Date?, calendars: [String]?, timeZone: TimeZone) {
    self.completed = completed
    self.start = start
    self.end = end
    self.calendars = calendars
    self.timeZone = timeZone
  }

  var query: String {
    EventPredicate.query(
      [("from", start), ("to", end)], timeZone: timeZone, calendars: calendars,
      extra: [("status", completed ? "completed" : "incomplete")])
  }
}
