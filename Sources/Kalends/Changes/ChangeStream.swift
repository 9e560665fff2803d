/// The changes of a store as an asynchronous sequence of ``ChangeNotice``s: from ``Store/changes(from:options:)``
/// or, filtered by a client's access, ``EventStore/changes(from:options:)``.
///
/// Each iterator is one subscription. It first catches up with the log from the starting position
/// (in notices of at most ``ChangeStreamOptions/catchUpBatch`` records), then goes live: it waits
/// until any process commits, and its next notice covers everything committed since its last —
/// however slow it is, nothing queues up and the writer never waits. Iteration ends (`nil`) when the
/// task is cancelled; a client session's subscription throws
/// ``AccessError/sessionTerminated(client:at:)`` once its access was changed from outside the app.
public struct ChangeStream: AsyncSequence, Sendable {
  public typealias Element = ChangeNotice
  public typealias Failure = StoreError

  let store: Store
  let viewer: ChangeViewer
  let start: LogPosition?
  let options: ChangeStreamOptions

  /// One subscription.
  public struct Iterator: AsyncIteratorProtocol {
    public typealias Element = ChangeNotice
    public typealias Failure = StoreError

    let subscription: Result<ChangeSubscription, StoreError>

    /// The next notice, waiting for one; `nil` once the task is cancelled.
    public mutating func next() async throws(StoreError) -> ChangeNotice? {
      try await subscription.get().next()
    }

    public mutating func next(isolation actor: isolated (any Actor)?) async throws(StoreError) -> ChangeNotice? {
      try await subscription.get().next(isolation: actor)
    }
  }

  /// Starts a subscription. A starting position past the head + 1 makes the first `next()` throw
  /// ``StoreError/recordNotFound(_:head:)``.
  public func makeAsyncIterator() -> Iterator {
    Iterator(
      subscription: Result(catching: { () throws(StoreError) -> ChangeSubscription in
        try ChangeSubscription(store: store, viewer: viewer, from: start, options: options)
      }))
  }
}

extension Store {
  /// Every change to the store from `position` on (`nil`: from the next commit), by any process.
  ///
  /// See ``ChangeStream``. Save the last notice's `positions.upperBound` to resume later from the
  /// position after it: nothing is missed and nothing is heard twice.
  public func changes(from position: LogPosition? = nil, options: ChangeStreamOptions = ChangeStreamOptions())
    -> ChangeStream
  {
    ChangeStream(store: self, viewer: .owner, start: position, options: options)
  }
}
