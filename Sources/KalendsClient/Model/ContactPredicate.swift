/// Which contacts ``ContactStore/contacts(matching:)`` returns: Contacts' predicates
/// (`CNContact.predicateForContacts(matchingName:)` and its kin), as prefix searches of the
/// store's index.
public enum ContactPredicate: Sendable, Hashable {
  /// Every contact the app may use.
  case all
  /// Contacts each of whose words starts a word of the name (case and diacritics folded).
  case name(String)
  /// Contacts with an email address starting with the text.
  case emailAddress(String)
  /// Contacts with a phone number whose digits start with the text's digits, with or without a
  /// country code or trunk prefix (`555` finds `+1 555 010 2000`).
  case phoneNumber(String)
  /// The members of a group (none for an app with limited access).
  case group(String)

  /// The query of `GET /v1/contacts`.
  var query: String {
    switch self {
    case .all: ""
    case .name(let text): "?name=" + EventPredicate.escape(text)
    case .emailAddress(let text): "?email=" + EventPredicate.escape(text)
    case .phoneNumber(let text): "?phone=" + EventPredicate.escape(text)
    case .group(let id): "?group=" + EventPredicate.escape(id)
    }
  }
}
