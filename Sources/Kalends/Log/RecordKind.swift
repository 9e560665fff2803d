/// What a record states, as a number stored in the log.
///
/// The set is open: a kind this version does not know still decodes, verifies and prints (as
/// `kind#N`). Numbers are allocated by area and never reused. The fields of each kind's payload
/// are listed in docs/log-format.md and returned, named and typed, by ``LogRecord/fields()``.
public struct RecordKind: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
  /// The stored number.
  public var rawValue: UInt16

  /// Wraps a stored number.
  public init(rawValue: UInt16) { self.rawValue = rawValue }

  /// The store was created. Always the first record.
  public static let storeCreated = RecordKind(rawValue: 1)
  /// Someone wrote a note into the log (an operator's remark, a checkpoint label).
  public static let annotationAdded = RecordKind(rawValue: 2)

  /// The person (or a retention policy, through the system) erased the content of an object's
  /// records: they keep their header, their kept fields and their hash; the payload names the
  /// object and every record erased.
  public static let contentErased = RecordKind(rawValue: 3)

  /// The person set (or turned off) the retention policy: how long removed items keep their
  /// content before the system erases it.
  public static let retentionSet = RecordKind(rawValue: 4)

  /// A calendar was created or changed.
  public static let calendarSaved = RecordKind(rawValue: 101)
  /// A calendar was removed, and with it every item in it.
  public static let calendarRemoved = RecordKind(rawValue: 102)
  /// An event (a single event or a whole series) was created or changed; the payload holds its full
  /// new state and what the change was.
  public static let eventSaved = RecordKind(rawValue: 201)
  /// An event (a single event or a whole series) was removed.
  public static let eventRemoved = RecordKind(rawValue: 202)
  /// A reminder was created or changed.
  public static let reminderSaved = RecordKind(rawValue: 301)
  /// A reminder was removed.
  public static let reminderRemoved = RecordKind(rawValue: 302)

  /// A contact was created or changed; the payload holds its full new state.
  public static let contactSaved = RecordKind(rawValue: 501)
  /// A contact was removed.
  public static let contactRemoved = RecordKind(rawValue: 502)
  /// A group of contacts was created or renamed.
  public static let groupSaved = RecordKind(rawValue: 503)
  /// A group of contacts was removed (its members stay, outside it).
  public static let groupRemoved = RecordKind(rawValue: 504)
  /// A contacts container (an address book, ``ContactContainer``) was created or changed: its title,
  /// the name a CardDAV client made it under and its WebDAV dead properties (the payload holds its
  /// whole state).
  public static let addressBookSaved = RecordKind(rawValue: 505)
  /// A contacts container was removed; the same transaction removed its contacts and groups first,
  /// each by a record of its own.
  public static let addressBookRemoved = RecordKind(rawValue: 506)

  /// A client (an app) was registered or its name or usage descriptions changed.
  /// An account (a ``CalendarSource`` of kind CalDAV) added or changed: field 1 its id, 5 its
  /// state (docs/log-format.md). The person's only.
  public static let sourceSaved = RecordKind(rawValue: 601)
  /// An account removed, with its calendars: field 1 its id. The person's only.
  public static let sourceRemoved = RecordKind(rawValue: 602)
  /// An account's server now holds an object of one of its calendars as the store does (a `PUT`
  /// or a `DELETE` it took, or nothing left to send): field 1 the calendar, 2 the object's name, 3
  /// its new `ETag` (absent: the server no longer holds it), 4 the position of the last local
  /// change it carries, 5 and 6 its events and reminders. Made by the account (`source:ID`).
  public static let remoteDelivered = RecordKind(rawValue: 603)
  /// A local change to an object of an account calendar met a change of the same object on the
  /// server: the server's version is kept as current (the records after it, by the account) and
  /// the local one stays in history. Field 1 the calendar, 2 the object's name, 3 the position of
  /// the local change, 4 the `ETag` it was based on, 5 the server's (absent: the server removed
  /// it). Made by the account (`source:ID`).
  public static let remoteConflict = RecordKind(rawValue: 604)

  /// An app registered for push notices of a collection it sees (WebDAV-Push): the subscription
  /// sealed under the store's push secret (``PushRegistration``).
  public static let pushRegistered = RecordKind(rawValue: 701)
  /// A push registration ended: by its app, by the person, or its push service said it is gone.
  public static let pushUnregistered = RecordKind(rawValue: 702)
  public static let clientRegistered = RecordKind(rawValue: 401)
  /// A client asked for access to a service; the payload says what it got and whether the person
  /// was asked.
  public static let accessRequested = RecordKind(rawValue: 402)
  /// A client's status for a service changed (a prompt answered, settings, a policy, a reset, a
  /// request without a usage description).
  public static let accessDecided = RecordKind(rawValue: 403)
  /// Calls of a client were refused for lack of access (coalesced per client, service and minute).
  public static let accessAttemptRefused = RecordKind(rawValue: 404)
  /// A client tried what only the person who owns the store may do (change access, register apps,
  /// read the log, the audit or a backup).
  public static let ownerActionRefused = RecordKind(rawValue: 405)
  /// The store server refused a process it could not identify as a registered app; the payload
  /// holds what the kernel said about it.
  public static let callerUnidentified = RecordKind(rawValue: 406)
  /// The person created a token by which an app reaches the store server over TCP; the payload
  /// holds its id and the digest of its secret, never the secret.
  public static let clientTokenCreated = RecordKind(rawValue: 407)
  /// The person revoked an app's token.
  public static let clientTokenRevoked = RecordKind(rawValue: 408)
  /// The person chose which objects an app with limited access may use (contacts), adding and
  /// removing some.
  public static let accessScopeChanged = RecordKind(rawValue: 409)
  /// The person picked one contact for an app in the contact picker: the app was handed that
  /// contact's data once, without access to contacts.
  public static let contactPicked = RecordKind(rawValue: 410)
  /// An app read data of a service with the access it held: which operation, the calendars or
  /// chosen contacts it touched (never their content), the decision in force, coalesced per app,
  /// service, operation and minute with an exact count. An app's writes are their own records.
  public static let dataRead = RecordKind(rawValue: 411)

  /// The schema of this kind's payload, if this version knows the kind.
  package var schema: RecordSchema? { RecordSchema.all[self] }

  /// The kind's name in the past tense (`storeCreated`), or `kind#N` when unknown.
  public var name: String { schema?.name ?? "kind#\(rawValue)" }

  /// The kind with this name, or `nil`.
  public init?(name: String) {
    guard let match = RecordSchema.all.first(where: { $0.value.name == name }) else { return nil }
    self = match.key
  }

  public var description: String { name }
}
