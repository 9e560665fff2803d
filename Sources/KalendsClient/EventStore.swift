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

  /// The calendars of `type` the app may see (none without full access).
  public func calendars(for type: EntityType) async throws -> [Calendar] {
    guard type == .event else {
      throw KalendsClientError.malformedResponse("the store server serves event calendars only")
    }
    return try await connection.call("GET", "/v1/calendars")
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
