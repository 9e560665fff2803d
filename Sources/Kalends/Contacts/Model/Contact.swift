/// A person or an organization in the contacts book (Contacts' `CNContact`), saved and versioned
/// like a calendar item: a stable identifier, and the log position that last changed it.
///
/// Every field is optional text or a list of labeled values; a contact with nothing in it is
/// valid (as `CNMutableContact()` is), and vCard export names it by its organization, an email, or
/// "(no name)".
public struct Contact: Hashable, Sendable {
  /// Whether the card is a person or an organization (`CNContactType`).
  public enum Kind: UInt8, Hashable, Sendable, CaseIterable, CustomStringConvertible {
    /// A person's card.
    case person = 0
    /// An organization's card: its name is ``Contact/organizationName``.
    case organization = 1

    public var description: String { self == .person ? "person" : "organization" }
  }

  /// The stable identifier.
  public package(set) var id: ObjectID
  /// The identifier shared by every copy of the card (vCard's `UID`).
  public var externalID: String
  /// A person or an organization.
  public var kind: Kind
  /// A title before the name: "Dr.", "Ms."
  public var namePrefix: String?
  /// The given (first) name.
  public var givenName: String?
  /// The middle name.
  public var middleName: String?
  /// The family (last) name.
  public var familyName: String?
  /// A suffix after the name: "Jr.", "PhD".
  public var nameSuffix: String?
  /// The nickname.
  public var nickname: String?
  /// How the given name sounds (for names in scripts that do not say it).
  public var phoneticGivenName: String?
  /// How the middle name sounds.
  public var phoneticMiddleName: String?
  /// How the family name sounds.
  public var phoneticFamilyName: String?
  /// The organization (company) the person works for, or the organization the card is.
  public var organizationName: String?
  /// The department within the organization.
  public var departmentName: String?
  /// The job title.
  public var jobTitle: String?
  /// Email addresses, each with its label (`home`, `work`, or the person's own).
  public var emailAddresses: [LabeledValue<String>]
  /// Phone numbers as written, each with its label (`mobile`, `home`, `work`, `main`, …).
  public var phoneNumbers: [LabeledValue<String>]
  /// Postal addresses, each with its label.
  public var postalAddresses: [LabeledValue<PostalAddress>]
  /// Web addresses, each with its label.
  public var urlAddresses: [LabeledValue<String>]
  /// The birthday; its year may be unknown.
  public var birthday: ContactDate?
  /// The anniversary (vCard's `ANNIVERSARY`, Contacts' date labelled anniversary); its year may be
  /// unknown.
  public var anniversary: ContactDate?
  /// Free text.
  public var note: String?
  /// The groups it belongs to (``ContactGroup``). Groups removed since are left out when read.
  public var groupIDs: [ObjectID]
  /// vCard properties Kalends does not model (`PHOTO`, `X-…`, `IMPP`, …), as unfolded content
  /// lines, kept from an import and written again on export.
  public var additionalProperties: [String]
  /// The name a CardDAV client stored it under (`/dav/addressbooks/contacts/NAME.vcf`), when that is
  /// not its `UID`. Set by `EventStore.putContact(_:named:in:condition:)`, kept by every other save;
  /// `nil` when the card is named by its `UID`.
  public internal(set) var resourceName: String?
  /// The WebDAV dead properties a CardDAV client stored on its card's resource with `PROPPATCH`, as
  /// ``Event/clientProperties``: kept when the card's text is replaced.
  public var clientProperties: [String: String]
  /// The container (address book) it belongs to (``ContactContainer``): set before its first save
  /// (by default the local one); the store keeps the one it was first saved in.
  public var containerID: ObjectID
  /// When it was first saved.
  public internal(set) var creationDate: Timestamp?
  /// When it was last saved.
  public internal(set) var lastModifiedDate: Timestamp?
  /// The log position that last changed it; `.none` before it is first saved.
  public internal(set) var version: LogPosition

  /// A new contact, not yet saved.
  public init(givenName: String? = nil, familyName: String? = nil, kind: Kind = .person) {
    self.id = .random()
    self.externalID = ObjectID.random().description
    self.kind = kind
    self.givenName = givenName
    self.familyName = familyName
    self.emailAddresses = []
    self.phoneNumbers = []
    self.postalAddresses = []
    self.urlAddresses = []
    self.groupIDs = []
    self.additionalProperties = []
    self.resourceName = nil
    self.clientProperties = [:]
    self.containerID = ContactContainer.localID
    self.version = .none
  }

  /// The name a person reads: prefix, given, middle, family and suffix names in that order; the
  /// organization for an organization or a card without names; else the first email address.
  public var displayName: String {
    let names = [namePrefix, givenName, middleName, familyName, nameSuffix].compactMap { $0 }.filter { !$0.isEmpty }
    if kind == .person, !names.isEmpty { return names.joined(separator: " ") }
    if let organization = organizationName, !organization.isEmpty { return organization }
    if !names.isEmpty { return names.joined(separator: " ") }
    return emailAddresses.first?.value ?? ""
  }
}
