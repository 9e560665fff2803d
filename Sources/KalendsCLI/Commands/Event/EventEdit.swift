import Kalends
import KalendsCommandSupport

/// The changes `event add` or `event update` make to an event, parsed before the store is opened.
/// `nil` leaves a field as it is; an empty text clears it.
struct EventEdit {
  var calendarID: ObjectID?
  var title: String?
  var timing: EventTiming
  var location: String?
  var notes: String?
  var url: String?
  var rules: [RecurrenceRule]?
  var alarms: [Alarm]?
  var availability: Event.Availability?
  var status: Event.Status?

  /// Applies the changes to `event`.
  func apply(to event: inout Event) throws(CLIError) {
    if let calendarID { event.calendarID = calendarID }
    if let title { event.title = title }
    try timing.apply(to: &event)
    if let location { event.location = location.isEmpty ? nil : location }
    if let notes { event.notes = notes.isEmpty ? nil : notes }
    if let url { event.url = url.isEmpty ? nil : url }
    if let rules { event.recurrenceRules = rules }
    if let alarms { event.alarms = alarms }
    if let availability { event.availability = availability }
    if let status { event.status = status }
  }
}
