import Kalends

/// Contacts with every field set, for round trips.
enum ContactFixture {
  /// A person with names, labeled values of every kind (a custom label among them), a birthday
  /// without a year, text that needs escaping and a property Kalends does not model.
  static func rich(groups: [ObjectID] = []) -> Contact {
    var contact = Contact(givenName: "José", familyName: "Ørsted")
    contact.middleName = "Maria"
    contact.namePrefix = "Dr."
    contact.nameSuffix = "Jr."
    contact.nickname = "Pepe"
    contact.phoneticGivenName = "Hoh-say"
    contact.phoneticFamilyName = "Er-sted"
    contact.organizationName = "Wind; Power, Inc."
    contact.departmentName = "Research"
    contact.jobTitle = "Engineer"
    contact.emailAddresses = [
      LabeledValue(label: "work", value: "jose@example.com"), LabeledValue(label: "home", value: "pepe@example.org"),
    ]
    contact.phoneNumbers = [
      LabeledValue(label: "mobile", value: "+1 (555) 010-2000"), LabeledValue(label: "Gym", value: "555 1234"),
    ]
    contact.postalAddresses = [
      LabeledValue(
        label: "home",
        value: PostalAddress(
          street: "1 Main St\nFlat 2", city: "Springfield", state: "IL", postalCode: "62701", country: "USA"))
    ]
    contact.urlAddresses = [LabeledValue(label: "homepage", value: "https://example.com/~jose?a=1")]
    contact.birthday = ContactDate(year: nil, month: 4, day: 12)
    contact.note = "Met at the conference, 2024; likes \\ backslashes\nand a second line."
    contact.groupIDs = groups
    contact.additionalProperties = ["X-SOCIALPROFILE;TYPE=mastodon:https://example.social/@jose"]
    return contact
  }
}
