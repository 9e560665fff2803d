/// What changed in the store, as the server's change stream tells the app (EventKit's
/// `EKEventStoreChanged` notification, with what changed): refresh the objects named, or refetch
/// everything when ``refetchAll`` says so.
public struct ChangeNotice: Sendable, Hashable, Decodable {
  /// One object changed.
  public struct Change: Sendable, Hashable, Decodable {
    /// `calendar`, `event`, `reminder`, `contact`, `group` or `client`.
    public let entity: String
    /// Its identifier.
    public let id: String
    /// `added`, `changed`, `removed` or `accessChanged`.
    public let change: String
  }

  /// The first and last log positions the notice covers.
  public let from: Int
  public let to: Int
  /// The log's head when it was read.
  public let head: Int
  /// Whether it covers history before the stream started (catching up).
  public let catchUp: Bool
  /// Whether too much changed to list: refetch everything.
  public let refetchAll: Bool
  /// What changed (empty when ``refetchAll``).
  public let changes: [Change]
}
