/// A group of contacts: Contacts' `CNGroup`, as the server describes it.
public struct ContactGroup: Sendable, Hashable, Decodable, Identifiable {
  /// Its identifier.
  public let id: String
  /// Its name.
  public let name: String
  /// Its version, as the server's entity tag gives it: equal while the group is unchanged,
  /// otherwise meaningless to the app (it counts nothing).
  public let version: String
}
