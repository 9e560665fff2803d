/// Why the store refused a contact or a group, in the spirit of Contacts' `CNError.Code`. Each case
/// says what to do. A refused write changes nothing.
public enum ContactError: Error, Hashable, Sendable, CustomStringConvertible {
  /// No contact with this identifier exists (`recordDoesNotExist`).
  case contactNotFound(ObjectID)
  /// No group with this identifier exists.
  case groupNotFound(ObjectID)
  /// The contact or group was removed (at this position); it cannot be saved again.
  case removed(ObjectID, at: LogPosition)
  /// The contact or group changed since it was fetched: fetched at `fetched`, now at `current`.
  case changedSinceFetched(ObjectID, fetched: LogPosition, current: LogPosition)
  /// A field is too long, empty where it may not be, or holds bytes it cannot
  /// (`validationMultipleErrors`' parts).
  case invalidField(field: String, reason: String)
  /// A CardDAV client stored a card at a name that holds one of the other kind (a group's card
  /// where a contact's is, or the reverse): `holder` says which is there.
  case nameHeldByOtherKind(name: String, holder: String)
  /// No container (address book) with this identifier exists, or the session does not see it.
  case containerNotFound(ObjectID)
  /// Another container holds this name (``ContactContainer/resourceName``).
  case containerNameInUse(String)
  /// The store's local container cannot be removed.
  case localContainerKept
  /// The container is an account's address book and the change is its server's to make: the
  /// book's own title and properties, or any change to a book whose server lets the user change
  /// nothing (``ContactContainer/allowsContentModifications``).
  case containerReadOnly(ObjectID)

  /// The broad class of the failure.
  public var category: StoreError.Category {
    switch self {
    case .contactNotFound, .groupNotFound, .containerNotFound: .notFound
    case .containerReadOnly: .accessRefused
    case .removed, .changedSinceFetched, .nameHeldByOtherKind, .containerNameInUse, .localContainerKept: .conflict
    case .invalidField: .invalidInput
    }
  }

  public var description: String {
    switch self {
    case .contactNotFound(let id): "no contact \(id) — list contacts with `kalends contact list`"
    case .groupNotFound(let id): "no group \(id) — list groups with `kalends group list`"
    case .removed(let id, let position): "\(id) was removed at position \(position) — create a new one instead"
    case .changedSinceFetched(let id, let fetched, let current):
      "\(id) changed since it was fetched (version \(fetched), now \(current)) — fetch it again and reapply, or overwrite"
    case .invalidField(let field, let reason): "\(field) \(reason) — fix it"
    case .nameHeldByOtherKind(let name, let holder):
      "\(name) holds \(holder)'s card — remove it first, or store this card under another name"
    case .containerNotFound(let id): "no address book \(id) — list them with `kalends contact book list`"
    case .containerNameInUse(let name):
      "another address book is named \(name) — choose another name, or use that one"
    case .localContainerKept: "the local address book cannot be removed — remove its contacts instead"
    case .containerReadOnly(let id):
      "address book \(id) is an account's, and this change is its server's to make — make it there"
    }
  }
}
