extension EventStore {
  /// The changes this session may hear about, from `position` on (`nil`: from the next commit), by
  /// any process: for the owner everything; for a client session only what its access lets it see
  /// (write-only access hears nothing about existing events). A client session's subscription
  /// throws ``AccessError/sessionTerminated(client:at:)`` when its access is changed from outside
  /// the app. See ``ChangeStream``.
  public func changes(from position: LogPosition? = nil, options: ChangeStreamOptions = ChangeStreamOptions())
    -> ChangeStream
  {
    let viewer =
      sessionClient.map {
        ChangeViewer(
          client: $0, sessionStart: sessionStart, token: identification?.tokenID, evidence: identification)
      }
      ?? .owner
    return ChangeStream(store: store, viewer: viewer, start: position, options: options)
  }

  /// Throws unless this session may hear of some changes — full access to calendars or to
  /// reminders, full or limited access to contacts (the owner always) — recording the refusal, as
  /// for any refused call. A subscriber without any would hear nothing but its own registration;
  /// `kalends watch --as` refuses it.
  public func checkHearsChanges() throws(StoreError) {
    guard let client = sessionClient else { return }
    try read { txn, _, _ in
      let calendars = try sessionStatus(.calendars, in: txn) ?? .fullAccess
      let reminders = try sessionStatus(.reminders, in: txn) ?? .fullAccess
      let contacts = try sessionStatus(.contacts, in: txn) ?? .fullAccess
      guard calendars != .fullAccess && reminders != .fullAccess && contacts != .fullAccess && contacts != .limited
      else { return }
      throw SnapshotRefusal(
        denied: .accessDenied(client: client, service: .calendars, status: calendars, operation: "hear of changes"))
    }
  }
}
