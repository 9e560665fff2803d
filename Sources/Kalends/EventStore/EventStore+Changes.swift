extension EventStore {
  /// The changes this session may hear about, from `position` on (`nil`: from the next commit), by
  /// any process: for the owner everything; for a client session only what its access lets it see
  /// (write-only access hears nothing about existing events). A client session's subscription
  /// throws ``AccessError/sessionTerminated(client:at:)`` when its access is changed from outside
  /// the app. See ``ChangeStream``.
  public func changes(from position: LogPosition? = nil, options: ChangeStreamOptions = ChangeStreamOptions())
    -> ChangeStream
  {
    let viewer = sessionClient.map { ChangeViewer(client: $0, sessionStart: sessionStart) } ?? .owner
    return ChangeStream(store: store, viewer: viewer, start: position, options: options)
  }
}
