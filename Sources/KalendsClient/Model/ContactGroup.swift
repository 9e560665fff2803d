/// A group of contacts: Contacts' `CNGroup`, as the server describes it.
public struct ContactGroup: Sendable, Hashable, Decodable, Identifiable {
  /// Its identifier.
  public let id: String
  /// Its name.
  public let name: String
  /// The log position of its last change.
  public let version: Int
}
