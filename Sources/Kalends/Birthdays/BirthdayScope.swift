/// Which contacts' birthdays a session sees (``EventStore/birthdayScope(_:in:)``), with the
/// decision that lets it.
enum BirthdayScope {
  /// None: the session has no access to contacts.
  case none
  /// Every contact's; the state is `nil` for the person.
  case all(PermissionState?)
  /// Those of these contacts (limited access).
  case some(Set<ObjectID>, PermissionState)

  func contains(_ contact: ObjectID) -> Bool {
    switch self {
    case .none: false
    case .all: true
    case .some(let ids, _): ids.contains(contact)
    }
  }

  /// The decision an app's read rests on; `nil` for the person or no access.
  var state: PermissionState? {
    switch self {
    case .none: nil
    case .all(let state): state
    case .some(_, let state): state
    }
  }
}
