/// A group of contacts (Contacts' `CNGroup`): a name. Membership is held by each contact
/// (``Contact/groupIDs``), so that adding a contact to a group is a save of that contact.
public struct ContactGroup: Hashable, Sendable {
  /// The stable identifier.
  public package(set) var id: ObjectID
  /// The identifier shared by every copy of the group (the `UID` of its vCard).
  public var externalID: String
  /// The name.
  public var name: String
  /// When it was first saved.
  public internal(set) var creationDate: Timestamp?
  /// When it was last saved.
  public internal(set) var lastModifiedDate: Timestamp?
  /// The log position that last changed it; `.none` before it is first saved.
  public internal(set) var version: LogPosition

  /// A new group, not yet saved.
  public init(name: String) {
    self.id = .random()
    self.externalID = ObjectID.random().description
    self.name = name
    self.version = .none
  }
}
