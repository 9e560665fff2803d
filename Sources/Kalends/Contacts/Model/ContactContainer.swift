/// An address book of the store (Contacts' `CNContainer`): the contacts and groups in it, and its
/// own title and properties. The store always has its local one (``localID``, at
/// `/dav/addressbooks/contacts/`); a CardDAV client or the person makes more (extended `MKCOL`,
/// `kalends contact book add`), and each is a collection of its own with its own sync token and
/// collection tag.
///
/// A contact or a group belongs to the container it was first saved in, for good (as in Contacts,
/// where a contact is added to a container and never moved); a group's members are contacts of its
/// container. Access to contacts spans containers, as on iOS: an app with full access sees every
/// container; an app with limited access sees the local one, those holding a contact it may use,
/// and those it made.
public struct ContactContainer: Hashable, Sendable {
  /// The identifier of the store's local container, which exists in every store and cannot be
  /// removed.
  public static let localID = ObjectID(bytes: [UInt8](repeating: 0, count: 16))!
  /// The name CardDAV clients find the local container at.
  public static let localResourceName = "contacts"
  /// The title of the local container until one is set.
  public static let localTitle = "Contacts"

  /// The stable identifier.
  public package(set) var id: ObjectID
  /// The title people read (`DAV:displayname`); not empty.
  public var title: String
  /// The name a CardDAV client made it under (`/dav/addressbooks/NAME/`), or `nil` when it is
  /// found by its identifier; the local container's is ``localResourceName``. Set when it is made
  /// through DAV or with a name, kept by every save after.
  public internal(set) var resourceName: String?
  /// The WebDAV dead properties CardDAV clients stored on it, as ``EventCalendar/clientProperties``
  /// (at most ``EventCalendar/maximumClientProperties``, bounded in bytes alike).
  public var clientProperties: [String: String]
  /// The app that made it, or `nil` when the person did (and for the local container).
  public internal(set) var creator: String?
  /// For an address book of a ``CalendarAccount``: the account, whose syncs alone change the book
  /// itself (its records are made by `source:ID`; its contacts change like any, and go out to the
  /// server); `nil` for the store's own.
  public internal(set) var accountID: ObjectID?
  /// For an account's address book: the server's collection it mirrors and how far the store has
  /// synced it; `nil` for every other, and in an app's copy of any.
  public internal(set) var remote: RemoteCollection?
  /// Whether its contacts and groups take changes (Contacts' and EventKit's
  /// `allowsContentModifications`): `false` only for an account's address book whose server does
  /// not let the user change the collection; what is changed in an account's book goes out to its
  /// server at the next sync. Its own title and properties are the server's, and never change here.
  public internal(set) var allowsContentModifications: Bool
  /// When it was first saved; `nil` for the local container before it was.
  public internal(set) var creationDate: Timestamp?
  /// The log position that last changed it; `.none` before it is first saved.
  public internal(set) var version: LogPosition

  /// A new container, not yet saved; `resourceName` is the name CardDAV clients will find it at.
  public init(title: String, resourceName: String? = nil) {
    self.id = .random()
    self.title = title
    self.resourceName = resourceName
    self.clientProperties = [:]
    self.creator = nil
    self.accountID = nil
    self.remote = nil
    self.allowsContentModifications = true
    self.version = .none
  }

  /// The local container as it stands before anything was saved to it.
  static var local: ContactContainer {
    var local = ContactContainer(title: localTitle, resourceName: localResourceName)
    local.id = localID
    return local
  }

  /// Whether this is the store's local container.
  public var isLocal: Bool { id == Self.localID }

  /// The name CardDAV clients find it at: its ``resourceName``, else its identifier.
  public var davName: String { isLocal ? Self.localResourceName : resourceName ?? id.description }
}
