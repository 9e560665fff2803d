import Foundation

/// An app's way to the calendars of a Kalends store, through the store server: EventKit's
/// `EKEventStore`, asynchronous.
///
/// The app never opens the store's files. Over the Unix socket the server identifies it by its
/// process (its executable's digest, or its Flatpak id), over TCP by the token it presents; the
/// app's access is checked by the server against the stored decisions on every call, and the
/// person answers the app's access requests on a channel the app cannot reach. A call the app's
/// access refuses throws ``KalendsClientError/problem(status:title:detail:)`` with status 403 and
/// is recorded by the server; when the person changes the app's access from outside, the app's
/// session ends (``KalendsClientError/sessionEnded(_:)`` from ``changes(after:)``, status 401 from
/// calls): as EventKit's app is killed then, it should exit and start again.
public final class EventStore: Sendable {
  private let connection: ServerConnection
  /// Where the server is.
  public var endpoint: Endpoint { connection.endpoint }

  /// The token of this store's latest read (of events, calendars), which ``changes(after:)`` starts after
  /// by default; `nil` before the first. Keep it to hear, in a later run, what changed since.
  public var lastReadToken: ChangeToken? { connection.lastReadToken }

  /// A store reached at `endpoint`. Connects on the first call.
  public init(endpoint: Endpoint) {
    connection = ServerConnection(endpoint: endpoint)
  }

  // MARK: Access

  /// The app's status for `type`.
  public func authorizationStatus(for type: EntityType) async throws -> AuthorizationStatus {
    let status: ServerConnection.Status = try await connection.call("GET", "/v1/authorization/\(type.service)")
    return status.status
  }

  /// Asks for full access to events. While undetermined the person is asked (the call waits for
  /// the answer, up to the server's prompt timeout); afterwards the decision stands. `true` when
  /// the app has full access.
  public func requestFullAccessToEvents() async throws -> Bool {
    try await request(.event, level: "full") == .fullAccess
  }

  /// Asks for write-only access to events (to add events and read none). `true` when the app may
  /// add events (write-only or full access).
  public func requestWriteOnlyAccessToEvents() async throws -> Bool {
    let status = try await request(.event, level: "write-only")
    return status == .writeOnly || status == .fullAccess
  }

  /// Asks for full access to reminders. `true` when granted.
  public func requestFullAccessToReminders() async throws -> Bool {
    try await request(.reminder, level: "full") == .fullAccess
  }

  /// EventKit's `requestAccess(to:)`, for an app registered as built before iOS 17: for events the
  /// person sees the write-only prompt; `true` when granted (write-only access included). An app
  /// built for iOS 17 gets an error and no prompt (docs/privacy.md).
  public func requestAccess(to type: EntityType) async throws -> Bool {
    let status = try await request(type, level: "legacy")
    return status == .writeOnly || status == .fullAccess
  }

  private func request(_ type: EntityType, level: String) async throws -> AuthorizationStatus {
    let status: ServerConnection.Status = try await connection.call(
      "POST", "/v1/authorization/\(type.service)/request?level=\(level)")
    return status.status
  }

  // MARK: Calendars and events

  /// The calendars (or reminder lists) of `type` the app may see, by title (for a write-only app,
  /// the one calendar new events go to).
  public func calendars(for type: EntityType) async throws -> [Calendar] {
    try await connection.call("GET", type == .event ? "/v1/calendars" : "/v1/calendars?for=reminders")
  }

  /// Creates a calendar (or, for `.reminder`, a reminder list) titled `title`, with `color`
  /// (`#RRGGBB`): EventKit's `EKCalendar(for:eventStore:)` then `saveCalendar(_:commit:)`. Needs
  /// full access to the service (status 403 otherwise); an app limited to chosen calendars may
  /// use the ones it creates.
  public func createCalendar(title: String, color: String? = nil, for type: EntityType) async throws -> Calendar {
    var body: [String: Any] = ["title": title, "allowedEntityTypes": [type == .event ? "events" : "reminders"]]
    if let color { body["color"] = color }
    return try await connection.call(
      "POST", "/v1/calendars", body: Array(try JSONSerialization.data(withJSONObject: body)))
  }

  /// Saves a calendar's changed title and colour, provided it is still at the version the app
  /// fetched (else status 412). Returns it as saved.
  @discardableResult
  public func saveCalendar(_ calendar: Calendar) async throws -> Calendar {
    var body: [String: Any] = ["title": calendar.title]
    if let color = calendar.color { body["color"] = color }
    return try await connection.call(
      "PATCH", "/v1/calendars/\(EventPredicate.escape(calendar.id))",
      headers: ServerConnection.ifMatch(calendar.version),
      body: Array(try JSONSerialization.data(withJSONObject: body)))
  }

  /// Removes a calendar with everything in it, provided it is still at the version the app
  /// fetched (else status 412). EventKit's `removeCalendar(_:commit:)`.
  public func removeCalendar(_ calendar: Calendar) async throws {
    try await connection.remove("/v1/calendars/\(EventPredicate.escape(calendar.id))", version: calendar.version)
  }

  /// The sources of the calendars the app may see; the store's own (`On My Computer`) always.
  public func sources() async throws -> [Source] {
    try await connection.call("GET", "/v1/sources")
  }

  /// The events and occurrences overlapping the predicate's range, by start (none for a
  /// write-only app, as EventKit gives it).
  public func events(matching predicate: EventPredicate) async throws -> [Event] {
    try await connection.call("GET", "/v1/events?" + predicate.query)
  }

  /// The event `id`, or `nil` when it is gone.
  public func event(withIdentifier id: String) async throws -> Event? {
    do {
      return try await connection.call("GET", "/v1/events/\(EventPredicate.escape(id))")
    } catch KalendsClientError.problem(status: 404, _, _) {
      return nil
    }
  }

  /// Saves `event`: creates it when it has no identifier, else changes it — an occurrence of a
  /// series with `span` — provided it is still at the version the app fetched (else status 412:
  /// refetch and decide again). Returns the saved event, with its identifier and version.
  @discardableResult
  public func save(_ event: Event, span: Span = .thisEvent) async throws -> Event {
    let body = try JSONSerialization.data(withJSONObject: event.body)
    guard let id = event.id else { return try await connection.call("POST", "/v1/events", body: Array(body)) }
    return try await connection.call(
      "PATCH", try target(id, event, span), headers: ServerConnection.ifMatch(event.version), body: Array(body))
  }

  /// Removes `event` (an occurrence of a series with `span`), provided it is still at the
  /// version the app fetched (else status 412).
  public func remove(_ event: Event, span: Span = .thisEvent) async throws {
    guard let id = event.id else { return }
    try await connection.remove(try target(id, event, span), version: event.version)
  }

  /// The event as it is now: `nil` when it was removed. EventKit's `refresh()`.
  public func refresh(_ event: Event) async throws -> Event? {
    guard let id = event.id else { return event }
    var path = "/v1/events/\(EventPredicate.escape(id))"
    if let occurrence = event.occurrenceDate { path += "?occurrence=\(EventPredicate.escape(occurrence))" }
    return try await connection.refreshed(event, at: path, version: event.version)
  }

  // MARK: Reminders

  /// The reminders the predicate names: incomplete ones by due date, completed ones most recent
  /// first. EventKit's `fetchReminders(matching:completion:)`.
  public func reminders(matching predicate: ReminderPredicate) async throws -> [Reminder] {
    try await connection.call("GET", "/v1/reminders?" + predicate.query)
  }

  /// The reminder `id`, or `nil` when it is gone.
  public func reminder(withIdentifier id: String) async throws -> Reminder? {
    do {
      return try await connection.call("GET", "/v1/reminders/\(EventPredicate.escape(id))")
    } catch KalendsClientError.problem(status: 404, _, _) {
      return nil
    }
  }

  /// Saves `reminder`: creates it when it has no identifier, else changes it, provided it is
  /// still at the version the app fetched (else status 412). A repeating reminder fetched
  /// incomplete and saved completed has its occurrence due completed and moves on to the next
  /// (the answer is the series, due then), as Reminders does; other changes saved with that
  /// are not. Returns the saved reminder.
  @discardableResult
  public func save(_ reminder: Reminder) async throws -> Reminder {
    guard let id = reminder.id else {
      let body = try JSONSerialization.data(withJSONObject: reminder.body(completing: false))
      return try await connection.call("POST", "/v1/reminders", body: Array(body))
    }
    let completing = reminder.isCompleted && !reminder.recurrenceRules.isEmpty && reminder.completionDate == nil
    let body = try JSONSerialization.data(withJSONObject: reminder.body(completing: completing))
    return try await connection.call(
      "PATCH", "/v1/reminders/\(EventPredicate.escape(id))", headers: ServerConnection.ifMatch(reminder.version),
      body: Array(body))
  }

  /// Removes `reminder`, provided it is still at the version the app fetched (else status 412).
  public func remove(_ reminder: Reminder) async throws {
    guard let id = reminder.id else { return }
    try await connection.remove("/v1/reminders/\(EventPredicate.escape(id))", version: reminder.version)
  }

  /// The reminder as it is now: `nil` when it was removed.
  public func refresh(_ reminder: Reminder) async throws -> Reminder? {
    guard let id = reminder.id else { return reminder }
    return try await connection.refreshed(
      reminder, at: "/v1/reminders/\(EventPredicate.escape(id))", version: reminder.version)
  }

  // MARK: Changes

  /// The change notices the app may hear, by any process: refresh what they name, refetch
  /// everything on ``ChangeNotice/refetchAll``. They start after `token` when given, else after
  /// this store's latest read (``lastReadToken``: no change after what the app read is missed,
  /// and one it read may be heard again), else at the next change. A lost connection is
  /// resumed where it stopped (`Last-Event-ID`), missing nothing. Ends with
  /// ``KalendsClientError/sessionEnded(_:)`` when the app's session ends.
  public func changes(after token: ChangeToken? = nil) -> AsyncThrowingStream<ChangeNotice, any Error> {
    ChangeFeed(endpoint: endpoint, after: token ?? connection.lastReadToken).stream()
  }

  // MARK: Plumbing

  private func target(_ id: String, _ event: Event, _ span: Span) throws -> String {
    var path = "/v1/events/\(EventPredicate.escape(id))?span=\(span.rawValue)"
    if let occurrence = event.occurrenceDate { path += "&occurrence=\(EventPredicate.escape(occurrence))" }
    return path
  }

}
