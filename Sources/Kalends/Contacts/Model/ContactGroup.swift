/// A group of contacts (Contacts' `CNGroup`): a name. Membership is held by each contact
/// (``Contact/groupIDs``), so that adding a contact to a group is a save of that contact.
public struct ContactGroup: Hashable, Sendable {
  /// The stable identifier.
  public package(set) var id: ObjectID
  /// The identifier shared by every copy of the group (the `UID` of its vCard).
  public var externalID: String
  /// The name.
  public var name: String
  /// vCard properties of the group's card that Kalends does not model (a client's `X-…`), as
  /// unfolded content lines, written again with the group's card.
  public var additionalProperties: [String]
  /// The name a CardDAV client stored it under (`/dav/addressbooks/contacts/NAME.vcf`), when that is
  /// not its `UID`. Set by `EventStore.putGroup(_:named:in:condition:)`, kept by every other save.
  public internal(set) var resourceName: String?
  /// The WebDAV dead properties of the group's card, as ``Contact/clientProperties``.
  public var clientProperties: [String: String]
  /// The `UID`s (bare of `urn:uuid:`) a client's card named as members that were no contact of the
  /// book when it was stored: kept, so that the card comes back as written, and joined by the
  /// contact that later arrives with that `UID`.
  var pendingMembers: [String]
  /// The container (address book) it belongs to (``ContactContainer``), whose contacts its members
  /// are: set before its first save (by default the local one); the store keeps the one it was
  /// first saved in.
  public var containerID: ObjectID
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
    self.additionalProperties = []
    self.resourceName = nil
    self.clientProperties = [:]
    self.pendingMembers = []
    self.containerID = ContactContainer.localID
    self.version = .none
  }
}
