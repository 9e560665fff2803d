/// An address book the contacts live in: Contacts' `CNContainer`, as the server describes it.
public struct ContactContainer: Sendable, Hashable, Decodable, Identifiable {
  /// Its identifier.
  public let id: String
  /// Its title.
  public let title: String
  /// Whether it is the store's local address book (which every store has).
  public let local: Bool
  /// Where CardDAV clients find it: `/dav/addressbooks/NAME/`.
  public let davName: String
  /// Its version, as the server's entity tag gives it: equal while the address book is
  /// unchanged, otherwise meaningless to the app (it counts nothing).
  public let version: String
}
