import Foundation

/// A contact the app may use: Contacts' `CNContact`, as the server describes it (docs/contacts.md).
/// Set the fields and save it with ``ContactStore/save(_:)``; a contact the app fetched saves only
/// while it is at the version fetched.
public struct Contact: Sendable, Hashable, Decodable, Identifiable {
  /// A value with a label (`home`, `work`, `mobile`, …, or the app's own): `CNLabeledValue`.
  public struct Labeled<Value: Sendable & Hashable & Codable>: Sendable, Hashable, Codable {
    /// The label; `nil` for none.
    public var label: String?
    /// The value.
    public var value: Value

    /// A value labeled `label`.
    public init(label: String? = nil, _ value: Value) {
      self.label = label
      self.value = value
    }
  }

  /// A postal address with its label: `CNPostalAddress` in a `CNLabeledValue`.
  public struct PostalAddress: Sendable, Hashable, Codable {
    /// The label; `nil` for none.
    public var label: String?
    public var street: String
    public var city: String
    public var state: String
    public var postalCode: String
    public var country: String
    public var postOfficeBox: String
    public var extendedAddress: String

    /// An address of the parts given.
    public init(
      label: String? = nil, street: String = "", city: String = "", state: String = "", postalCode: String = "",
      country: String = "", postOfficeBox: String = "", extendedAddress: String = ""
    ) {
      self.label = label
      self.street = street
      self.city = city
      self.state = state
      self.postalCode = postalCode
      self.country = country
      self.postOfficeBox = postOfficeBox
      self.extendedAddress = extendedAddress
    }
  }

  /// Its identifier; empty before it is saved.
  public internal(set) var id: String
  /// `person` or `organization`.
  public var contactType: String
  /// The name as a person reads it, formed by the server from the fields.
  public internal(set) var displayName: String
  public var namePrefix: String?
  public var givenName: String?
  public var middleName: String?
  public var familyName: String?
  public var nameSuffix: String?
  public var nickname: String?
  public var phoneticGivenName: String?
  public var phoneticMiddleName: String?
  public var phoneticFamilyName: String?
  public var organizationName: String?
  public var departmentName: String?
  public var jobTitle: String?
  public var emailAddresses: [Labeled<String>]
  public var phoneNumbers: [Labeled<String>]
  public var urlAddresses: [Labeled<String>]
  public var postalAddresses: [PostalAddress]
  /// The birthday: `1985-04-12`, or `--04-12` without a year.
  public var birthday: String?
  /// The anniversary, in the form of ``birthday``.
  public var anniversary: String?
  public var note: String?
  /// The groups it belongs to (always empty to an app with limited access, and for a contact the
  /// picker handed over).
  public internal(set) var groupIDs: [String]
  /// The address book it belongs to (``ContactContainer/id``); `nil` before it is saved. A new
  /// contact saved through the server joins the local one.
  public internal(set) var containerID: String?
  /// Its version, as the server's entity tag gives it (`nil` before it is saved): equal while the
  /// contact is unchanged, otherwise meaningless to the app (it counts nothing).
  public internal(set) var version: String?

  /// A new person, for ``ContactStore/save(_:)``.
  public init(givenName: String? = nil, familyName: String? = nil) {
    id = ""
    contactType = "person"
    displayName = ""
    self.givenName = givenName
    self.familyName = familyName
    emailAddresses = []
    phoneNumbers = []
    urlAddresses = []
    postalAddresses = []
    groupIDs = []
  }

  enum CodingKeys: String, CodingKey {
    case id, contactType, displayName, namePrefix, givenName, middleName, familyName, nameSuffix, nickname
    case phoneticGivenName, phoneticMiddleName, phoneticFamilyName, organizationName, departmentName, jobTitle
    case emailAddresses, phoneNumbers, urlAddresses, postalAddresses, birthday, anniversary, note
    case groupIDs = "groupIds"
    case containerID = "containerId"
    case version
  }

  /// The JSON body that saves every field an app sets: a null clears a field, so the saved
  /// contact holds exactly the fields the app holds (docs/server.md, "A contact body").
  var body: [UInt8] {
    struct Body: Encodable {
      let contact: Contact
      func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(contact.contactType, forKey: .contactType)
        for (key, value) in [
          (CodingKeys.namePrefix, contact.namePrefix), (.givenName, contact.givenName),
          (.middleName, contact.middleName), (.familyName, contact.familyName), (.nameSuffix, contact.nameSuffix),
          (.nickname, contact.nickname), (.phoneticGivenName, contact.phoneticGivenName),
          (.phoneticMiddleName, contact.phoneticMiddleName), (.phoneticFamilyName, contact.phoneticFamilyName),
          (.organizationName, contact.organizationName), (.departmentName, contact.departmentName),
          (.jobTitle, contact.jobTitle), (.birthday, contact.birthday), (.anniversary, contact.anniversary),
          (.note, contact.note),
        ] {
          if let value { try container.encode(value, forKey: key) } else { try container.encodeNil(forKey: key) }
        }
        try container.encode(contact.emailAddresses, forKey: .emailAddresses)
        try container.encode(contact.phoneNumbers, forKey: .phoneNumbers)
        try container.encode(contact.urlAddresses, forKey: .urlAddresses)
        try container.encode(contact.postalAddresses, forKey: .postalAddresses)
      }
    }
    return Array((try? JSONEncoder().encode(Body(contact: self))) ?? Data("{}".utf8))
  }
}
