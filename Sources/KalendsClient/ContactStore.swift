import Foundation

/// An app's way to the contacts of a Kalends store, through the store server: Contacts'
/// `CNContactStore`, asynchronous, with the contact picker (`CNContactPickerViewController`).
///
/// As ``EventStore``, the app never opens the store's files, is identified by the server, and
/// has every call checked against the stored decisions: before the person decided it gets status
/// 403 (recorded), as `ABAddressBookCreateWithOptions` returned `NULL`. With limited access
/// (iOS 18) it sees and changes only the contacts the person chose for it and those it created,
/// and no groups. Change notices naming contacts and groups come through ``EventStore/changes(after:)``
/// or this store's ``changes(after:)``.
public final class ContactStore: Sendable {
  private let connection: ServerConnection
  /// Where the server is.
  public var endpoint: Endpoint { connection.endpoint }

  /// The token of this store's latest read (of contacts, groups), which ``changes(after:)`` starts after
  /// by default; `nil` before the first. Keep it to hear, in a later run, what changed since.
  public var lastReadToken: ChangeToken? { connection.lastReadToken }

  /// A store reached at `endpoint`. Connects on the first call.
  public init(endpoint: Endpoint) {
    connection = ServerConnection(endpoint: endpoint)
  }

  // MARK: Access

  /// The app's status for contacts: `notDetermined`, `restricted`, `denied`, `fullAccess` or
  /// `limited`.
  public func authorizationStatus() async throws -> AuthorizationStatus {
    let status: ServerConnection.Status = try await connection.call("GET", "/v1/authorization/contacts")
    return status.status
  }

  /// Asks for access to contacts: `CNContactStore.requestAccess(for: .contacts)`. While undetermined
  /// the person is asked (the call waits, up to the server's prompt timeout) and may give full or
  /// limited access; afterwards the decision stands. `true` when the app has either.
  public func requestAccess() async throws -> Bool {
    let status: ServerConnection.Status = try await connection.call(
      "POST", "/v1/authorization/contacts/request?level=full")
    return status.status == .fullAccess || status.status == .limited
  }

  // MARK: Contacts and groups

  /// The contacts the app may use that `predicate` finds, by family then given name.
  public func contacts(matching predicate: ContactPredicate = .all) async throws -> [Contact] {
    try await connection.call("GET", "/v1/contacts" + predicate.query)
  }

  /// The contact `id`, or `nil` when it is gone or not the app's to use.
  public func contact(withIdentifier id: String) async throws -> Contact? {
    do {
      return try await connection.call("GET", "/v1/contacts/\(EventPredicate.escape(id))")
    } catch KalendsClientError.problem(status: 404, _, _) {
      return nil
    }
  }

  /// The groups (none for an app with limited access).
  public func groups() async throws -> [ContactGroup] {
    try await connection.call("GET", "/v1/groups")
  }

  /// The address books the app sees (`containers(matching: nil)`): all with full access; with
  /// limited access the local one, those holding a contact it was given and those it made. The
  /// local one first.
  public func containers() async throws -> [ContactContainer] {
    try await connection.call("GET", "/v1/address-books")
  }

  /// Saves `contact`: creates it when it has no identifier (with limited access it joins the
  /// app's contacts), else changes it, provided it is still at the version the app fetched (else
  /// status 412: refetch and decide again). Returns the saved contact, with identifier and version.
  @discardableResult
  public func save(_ contact: Contact) async throws -> Contact {
    guard !contact.id.isEmpty else { return try await connection.call("POST", "/v1/contacts", body: contact.body) }
    return try await connection.call(
      "PATCH", "/v1/contacts/\(EventPredicate.escape(contact.id))", headers: ServerConnection.ifMatch(contact.version),
      body: contact.body)
  }

  /// Removes `contact`, provided it is still at the version the app fetched (else status 412).
  public func remove(_ contact: Contact) async throws {
    guard !contact.id.isEmpty else { return }
    try await connection.remove("/v1/contacts/\(EventPredicate.escape(contact.id))", version: contact.version)
  }

  /// The contact as it is now: `nil` when it was removed or is no longer the app's to use.
  public func refresh(_ contact: Contact) async throws -> Contact? {
    guard !contact.id.isEmpty else { return contact }
    return try await connection.refreshed(
      contact, at: "/v1/contacts/\(EventPredicate.escape(contact.id))", version: contact.version)
  }

  // MARK: The picker

  /// Shows the person the contact picker (`CNContactPickerViewController`) and waits while the
  /// person picks: the contact picked, handed to the app once without its groups, or `nil` when
  /// the person cancels or does not answer within the server's prompt timeout. Needs no access
  /// to contacts and grants none; the server records the pick, by the person.
  public func pickContact() async throws -> Contact? {
    let response = try await connection.send("POST", "/v1/contacts/pick")
    switch response.status {
    case 204: return nil
    case 200: return try ServerConnection.decode(Contact.self, response)
    default: throw ServerConnection.problem(response)
    }
  }

  // MARK: Changes

  /// The change notices the app may hear (contacts and groups among them), as
  /// ``EventStore/changes(after:)`` tells them: after `token` when given, else after this
  /// store's latest read (``lastReadToken``), else from the next change.
  public func changes(after token: ChangeToken? = nil) -> AsyncThrowingStream<ChangeNotice, any Error> {
    ChangeFeed(endpoint: endpoint, after: token ?? connection.lastReadToken).stream()
  }
}
