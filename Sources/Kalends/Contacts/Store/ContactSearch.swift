/// Which contacts ``ContactStore/contacts(matching:)`` returns (Contacts' `CNContact` predicates).
public enum ContactSearch: Hashable, Sendable {
  /// Every contact.
  case all
  /// Contacts with a name word (given, middle, family, nickname, organization, phonetic) starting
  /// with each word of the text, compared without case, diacritics or width.
  case name(String)
  /// Contacts with an email address starting with the text (without case).
  case emailAddress(String)
  /// Contacts with a phone number whose digits start with the digits of the text, with or without
  /// a country code or trunk prefix: `555` finds `+1 555 010 2000`, `020 7946` finds
  /// `+44 20 7946 0001`, and `+44 20` finds `020 7946 0000`.
  case phoneNumber(String)
  /// The members of a group.
  case group(ObjectID)
  /// The contacts with these identifiers that exist.
  case identifiers([ObjectID])
}
