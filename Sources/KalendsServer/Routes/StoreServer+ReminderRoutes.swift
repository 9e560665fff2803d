import Foundation
import Hummingbird
import Kalends
import KalendsFormats

extension StoreServer {
  /// The routes of reminders (docs/server.md): the incomplete ones due in a window and the ones
  /// completed in one, as EventKit's reminder predicates fetch them; one reminder with its version
  /// as entity tag; create, change, complete and remove, `If-Match` refused with 412 when it
  /// changed since. Every one is checked against the app's access to reminders as the library
  /// checks it, and each refusal recorded.
  func addReminderRoutes(to router: Router<ServerContext>) {
    router.get("v1/reminders") { request, context in
      let use = try await self.app(context, using: .reminders, reading: true)
      let query = try Self.reminderQuery(request)
      let reminders = try await self.withStore(use) { () throws -> [Kalends.Reminder] in
        switch query.status {
        case .incomplete:
          try use.session.incompleteReminders(
            dueFrom: query.window?.from, to: query.window?.to, inCalendars: query.calendars, viewerZone: query.zone)
        case .completed:
          try use.session.completedReminders(
            from: query.window?.from, to: query.window?.to, inCalendars: query.calendars)
        }
      }
      return Self.json(.array(reminders.map { .object(use.positions.sealing($0.jsonFields, version: $0.version)) }))
    }
    router.post("v1/reminders") { request, context in
      let use = try await self.app(context, using: .reminders, reading: false)
      let edit = try ReminderEdit(json: try await Self.body(request))
      let saved = try await self.withStore(use) { () throws -> Kalends.Reminder in
        var reminder = Kalends.Reminder(calendarID: nil, title: "")
        try edit.apply(to: &reminder)
        return try use.session.save(reminder)
      }
      return Self.versioned(saved.jsonFields, saved.version, status: .created, use.positions)
    }
    router.get("v1/reminders/:id") { request, context in
      let use = try await self.app(context, using: .reminders, reading: true)
      let id = try Self.eventID(context)
      let reminder = try await self.withStore(use) { try Self.existingReminder(id, in: use.session) }
      if try EntityTag.condition(.ifNoneMatch, of: request)?.matches(reminder.version, use.positions) == true {
        return Response(status: .notModified, headers: [.eTag: EntityTag.tag(reminder.version, use.positions)])
      }
      return Self.versioned(reminder.jsonFields, reminder.version, status: .ok, use.positions)
    }
    router.patch("v1/reminders/:id") { request, context in
      let use = try await self.app(context, using: .reminders, reading: false)
      let id = try Self.eventID(context)
      let edit = try ReminderEdit(json: try await Self.body(request))
      let expected = try Self.expectedVersion(request)
      let saved = try await self.withStore(use) { () throws -> Kalends.Reminder in
        var reminder = try Self.existingReminder(id, in: use.session)
        try expected?.require(reminder.version, use.positions, of: "reminder \(id)")
        // Completing a repeating reminder completes the occurrence due and moves the series on,
        // as Reminders does; the series is answered.
        if edit.completed == true, !reminder.isCompleted, !reminder.recurrenceRules.isEmpty {
          guard !edit.changesMoreThanCompletion else {
            throw RequestError.invalidInput("complete a repeating reminder on its own, without other changes")
          }
          let done = try use.session.completeOccurrence(of: id, fetched: reminder.version)
          return done.next ?? done.completed
        }
        try edit.apply(to: &reminder)
        return try use.session.save(reminder)
      }
      return Self.versioned(saved.jsonFields, saved.version, status: .ok, use.positions)
    }
    router.delete("v1/reminders/:id") { request, context in
      let use = try await self.app(context, using: .reminders, reading: false)
      let id = try Self.eventID(context)
      let expected = try Self.expectedVersion(request)
      try await self.withStore(use) {
        let reminder = try Self.existingReminder(id, in: use.session)
        try expected?.require(reminder.version, use.positions, of: "reminder \(id)")
        try use.session.remove(reminder)
      }
      return Response(status: .noContent)
    }
  }

  /// What `GET /v1/reminders` asks: `status` (`incomplete`, the default, or `completed`), a
  /// window of due dates or of completion times (`from` and `to`, both or neither), the lists
  /// (`calendar`, repeatable) and the viewer's zone (`tz`, where floating and date-only due dates
  /// are placed).
  struct ReminderQuery {
    enum Status: String { case incomplete, completed }
    var status: Status
    var window: (from: Int64, to: Int64)?
    var calendars: [ObjectID]
    var zone: ZoneRules
  }

  static func reminderQuery(_ request: Request) throws -> ReminderQuery {
    let query = request.uri.queryParameters
    let statusText = query["status"].map(String.init) ?? "incomplete"
    guard let status = ReminderQuery.Status(rawValue: statusText) else {
      throw RequestError.invalidInput("status is incomplete or completed, not \"\(statusText)\"")
    }
    let (window, zone, calendars) = try Self.window(of: request, required: false)
    return ReminderQuery(status: status, window: window, calendars: calendars, zone: zone)
  }

  /// The reminder `id` as the session sees it, or a not-found error.
  static func existingReminder(_ id: ObjectID, in session: EventStore) throws -> Kalends.Reminder {
    guard let reminder = try session.reminder(withID: id) else { throw StoreError.calendar(.itemNotFound(id)) }
    return reminder
  }
}
