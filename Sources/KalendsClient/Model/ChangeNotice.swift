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

  /// Where the notice ends: a stream started after it hears what changed after this notice.
  public let token: ChangeToken
  /// Whether it covers history before the stream started (catching up).
  public let catchUp: Bool
  /// Whether too much changed to list: refetch everything.
  public let refetchAll: Bool
  /// What changed (empty when ``refetchAll``).
  public let changes: [Change]

  enum CodingKeys: String, CodingKey {
    case token = "position"
    case catchUp, refetchAll, changes
  }
}
