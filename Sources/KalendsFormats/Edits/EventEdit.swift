package import Kalends

/// The changes `event add` or `event update` make to an event, parsed before the store is opened.
/// `nil` leaves a field as it is; an empty text clears it.
package struct EventEdit {
  package var calendarID: ObjectID?
  package var title: String?
  package var timing: EventTiming
  package var location: String?
  package var notes: String?
  package var url: String?
  package var rules: [RecurrenceRule]?
  package var alarms: [Alarm]?
  package var availability: Event.Availability?
  package var status: Event.Status?

  package init(
    calendarID: ObjectID?, title: String?, timing: EventTiming, location: String?, notes: String?, url: String?,
    rules: [RecurrenceRule]?, alarms: [Alarm]?, availability: Event.Availability?, status: Event.Status?
  ) {
    self.calendarID = calendarID
    self.title = title
    self.timing = timing
    self.location = location
    self.notes = notes
    self.url = url
    self.rules = rules
    self.alarms = alarms
    self.availability = availability
    self.status = status
  }

  /// Applies the changes to `event`.
  package func apply(to event: inout Event) throws(RequestError) {
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
