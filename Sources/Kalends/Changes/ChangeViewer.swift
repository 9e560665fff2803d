internal import LMDB

/// Who listens to a change subscription, and so what it may hear: the owner hears everything; a
/// client session hears about calendars and events only with full access to calendars, about
/// reminders only with full access to reminders (write-only access hears nothing about existing
/// events), about contacts and groups only with full access to contacts, and about no client but
/// itself.
struct ChangeViewer: Sendable {
  /// What the viewer may hear about, as of one snapshot.
  struct Visibility {
    var calendars: Bool
    var events: Bool
    var reminders: Bool
    var contacts: Bool
    /// `nil`: every client.
    var onlyClient: String?

    /// Whether it sees any calendar data at all (a "refetch everything" means something to it).
    var seesItems: Bool { calendars || events || reminders || contacts }

    func allows(_ object: ChangedObject) -> Bool {
      switch object {
      case .calendar: calendars
      case .event: events
      case .reminder: reminders
      case .contact, .group: contacts
      case .client(let id): onlyClient.map { $0 == id } ?? true
      }
    }
  }

  /// The client of a session; `nil` for the owner.
  let client: String?
  /// For a session: the last decision made outside the app when it opened.
  let sessionStart: LogPosition
  /// For a session of a TCP caller: the token it presented, whose revocation ends the session.
  var token: String? = nil

  static let owner = ChangeViewer(client: nil, sessionStart: LogPosition(UInt64.max))

  /// What it may hear about in `txn`; throws ``AccessError/sessionTerminated(client:at:)`` once
  /// the session's access was changed from outside, ``AccessError/tokenRevoked(client:token:)``
  /// once its caller's token was revoked.
  func visibility(_ store: Store, in txn: borrowing ReadTransaction) throws -> Visibility {
    guard let client else {
      return Visibility(calendars: true, events: true, reminders: true, contacts: true, onlyClient: nil)
    }
    let permissions = try store.projection(PermissionProjection.self)
    try permissions.checkSession(client, start: sessionStart, token: token, in: txn)
    let events = try permissions.state(client, .calendars, in: txn).status == .fullAccess
    let reminders = try permissions.state(client, .reminders, in: txn).status == .fullAccess
    let contacts = try permissions.state(client, .contacts, in: txn).status == .fullAccess
    return Visibility(
      calendars: events || reminders, events: events, reminders: reminders, contacts: contacts, onlyClient: client)
  }
}
