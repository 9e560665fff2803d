/// The person's own decisions about apps, as in Settings: setting an app's access, restricting
/// it by a policy and lifting that, resetting it, and choosing the calendars and contacts a
/// limited app sees.
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
}

extension EventStore {
  /// The person's privacy settings (``PrivacySettings``). An app's session is refused
  /// (``AccessError/ownerOnly(_:)``), and the refusal recorded.
  public func privacySettings() throws(StoreError) -> PrivacySettings {
    try requireOwner("change privacy settings")
    return PrivacySettings(session: self)
  }
}
