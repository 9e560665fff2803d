/// The person's own settings and decisions, as in Settings: an app's access (set, restricted by a
/// policy and lifted, reset; the calendars and contacts a limited app sees), the tokens of apps
/// that reach the store over TCP, the retention policy, and erasure.
///
/// Only the person's session obtains it (``EventStore/privacySettings()``): an app's session is
/// refused before any of these verbs, and the refusal is recorded, so no app can name them.
/// Each verb is one transaction, checked against the stored state in it, and recorded as a
/// decision by the person.
public struct PrivacySettings: Sendable {
  /// The person's session.
  let session: EventStore

  /// Sets a client's status as the person does in settings: full access, write-only (calendars)
  /// or denied. Refused while a policy restricts it. Ends the client's open sessions.
  @discardableResult
  public func setAccess(_ status: AuthorizationStatus, for clientID: String, service: Service) throws(StoreError)
    -> AuthorizationStatus
  {
    try session.setAccess(status, for: clientID, service: service)
  }

  /// Restricts `service` for a client by the policy `policy`: it becomes `restricted` and stays so
  /// until that policy lifts its restriction (each policy's restriction is its own; the person
  /// cannot change it meanwhile). Nothing is written when `policy` already restricts it. Ends the
  /// client's open sessions.
  @discardableResult
  public func restrict(_ clientID: String, service: Service, policy: String) throws(StoreError) -> AuthorizationStatus {
    try session.restrict(clientID, service: service, policy: policy)
  }

  /// Lifts the restriction `policy` set: the status returns to the person's decision, or stays
  /// `restricted` while another policy restricts it too. Only the policy that restricted lifts.
  @discardableResult
  public func liftRestriction(_ clientID: String, service: Service, policy: String) throws(StoreError)
    -> AuthorizationStatus
  {
    try session.liftRestriction(clientID, service: service, policy: policy)
  }

  /// Clears the person's decision for one client (or every client) and one service (or all), like
  /// `tccutil reset`, in one transaction: the status returns to `notDetermined`, or stays
  /// `restricted` while a policy restricts it (a reset never lifts a policy). Ends the sessions of
  /// every client it changes. Returns how many statuses it changed.
  @discardableResult
  public func resetAccess(client clientID: String? = nil, service: Service? = nil) throws(StoreError) -> Int {
    try session.resetAccess(client: clientID, service: service)
  }

  /// Gives `clientID` limited access to contacts — the contacts `contacts`, and those it creates —
  /// as the person does in settings (iOS 18's "Limited Access"), in one transaction: the decision
  /// when the status was another, and the change of the chosen contacts (`accessScopeChanged`)
  /// when they differ. Refused while a policy restricts contacts. Ends the client's open sessions
  /// when the status changes.
  ///
  /// - Throws: ``ContactError/contactNotFound(_:)`` for a contact that does not exist.
  @discardableResult
  public func setLimitedAccess(for clientID: String, contacts: [ObjectID]) throws(StoreError) -> AuthorizationStatus {
    try session.setLimitedAccess(for: clientID, contacts: contacts)
  }

  /// Gives `clientID` full access to the calendars `calendars` only (`nil`: to every calendar), as
  /// the person does in settings, in one transaction: the decision when the status was another,
  /// and the change of the chosen calendars (`accessScopeChanged`) when they differ. The app sees,
  /// queries, writes and hears of events in those calendars only, and in the calendars it creates.
  /// Refused while a policy restricts calendars. Ends the client's open sessions when the status
  /// changes.
  ///
  /// - Throws: ``CalendarError/calendarNotFound(_:)`` for a calendar that does not exist or holds
  ///   no events.
  @discardableResult
  public func setCalendarAccess(for clientID: String, calendars: [ObjectID]?) throws(StoreError) -> AuthorizationStatus
  {
    try session.setCalendarAccess(for: clientID, calendars: calendars)
  }

  /// The calendars `clientID`'s full access is limited to (those the person chose and those it
  /// created), live ones only, in identifier order; `nil` when it is not limited. The owner's to
  /// read.
  public func chosenCalendars(for clientID: String) throws(StoreError) -> [ObjectID]? {
    try session.chosenCalendars(for: clientID)
  }

  /// The contacts the person chose for `clientID`'s limited access (the contacts it created aside),
  /// live ones only, in identifier order. The owner's to read.
  public func chosenContacts(for clientID: String) throws(StoreError) -> [ObjectID] {
    try session.chosenContacts(for: clientID)
  }

  // MARK: App tokens

  /// Creates a token for the registered app `clientID` and returns it with its secret, which is
  /// shown this once: the store keeps only its digest (one `clientTokenCreated` record). The
  /// owner's to call. `label` (one line, at most 100 bytes) tells the person's tokens apart.
  public func createToken(for clientID: String, label: String? = nil) throws(StoreError) -> (
    ClientToken, secret: String
  ) {
    try session.createToken(for: clientID, label: label)
  }

  /// Revokes the token `id` of the app `clientID` (one `clientTokenRevoked` record): from then on
  /// the server refuses it. The owner's to call; ``AccessError/tokenNotFound(client:token:)`` when
  /// the app has no such live token.
  @discardableResult
  public func revokeToken(_ id: String, of clientID: String) throws(StoreError) -> LogRecordHeader {
    try session.revokeToken(id, of: clientID)
  }

  /// The live tokens, of `clientID` or of every app, by app then creation. The owner's to read.
  public func tokens(of clientID: String? = nil) throws(StoreError) -> [ClientToken] {
    try session.tokens(of: clientID)
  }

  // MARK: Retention and erasure

  /// Sets the retention policy, a recorded decision of the person (`retentionSet`): the content of
  /// items removed more than `seconds` ago is erased by ``applyRetention(now:)``. `nil` (or 0)
  /// turns automatic erasure off. Returns the policy in force.
  ///
  /// - Throws: ``AccessError/ownerOnly(_:)`` for an app (recorded); ``StoreError/invalidInput(_:)``
  ///   for a negative period or one longer than 100 years.
  @discardableResult
  public func setRetention(removedAfterSeconds seconds: Int64?) throws(StoreError) -> RetentionPolicy? {
    try session.setRetention(removedAfterSeconds: seconds)
  }

  /// Erases, as the system, the content of every calendar, event, reminder, contact and group removed longer ago
  /// than the retention policy says, in one transaction; each erasure is a `contentErased` record
  /// by the system that names the policy's record. Items already erased are skipped. Returns the
  /// erasures; none without a policy.
  ///
  /// The log is searched once for all of them, in a snapshot before the write. `now` is the time
  /// the policy is judged at: by default the store's clock, the one it stamps its records with.
  @discardableResult
  public func applyRetention(now: Timestamp? = nil) throws(StoreError) -> [Erasure] {
    try session.applyRetention(now: now)
  }

  /// Erases the content of `item` — titles, notes, places, times, rules: the content of every
  /// record that saved it (docs/transparency.md, "Erasure").
  ///
  /// In one transaction: removes the object when it is still there (a `…Removed` record by the
  /// person), rewrites each record that carried its content in its erased form — the header (time,
  /// actor, kind), the object's identifier and calendar and what the change was are kept, the
  /// content and its salt are gone, the record's hash stays what it was — and appends a
  /// `contentErased` record naming them. Every checkpoint, every inclusion proof and the chain
  /// stay valid; `verify`, a rebuild and the audit work on the erased log. The erased bytes leave
  /// `data.mdb` when LMDB reuses their pages, or at once with ``Store/compact(at:)``; a backup
  /// taken afterwards never holds them.
  ///
  /// Records written before format version 3 lose their content too, but nothing left in them can
  /// be checked against their hash any more (``RecordContent/erasedUnverifiable``).
  ///
  /// - Parameters:
  ///   - item: The calendar, event, reminder, contact or group.
  ///   - reason: Why, written into the `contentErased` record (no content of the object belongs
  ///     there).
  /// - Returns: What was erased; nothing when nothing was left to erase (no record is appended).
  /// - Throws: ``AccessError/ownerOnly(_:)`` for an app (recorded); ``CalendarError`` or
  ///   ``ContactError`` when no such object ever existed.
  @discardableResult
  public func erase(_ item: ErasableItem, reason: String? = nil) throws(StoreError) -> Erasure {
    try session.erase(item, reason: reason)
  }
}

extension EventStore {
  /// The person's privacy settings (``PrivacySettings``). An app's session is refused
  /// (``AccessError/ownerOnly(_:)``), and the refusal recorded.
  public func privacySettings() throws(StoreError) -> PrivacySettings {
    try requireOwner("change privacy settings")
    return PrivacySettings(session: self)
  }
}
