package import Kalends

extension Contact {
  /// The contact as documented in docs/contacts.md's JSON shape.
  package var jsonFields: [(String, JSONValue)] {
    func labeled(_ values: [LabeledValue<String>]) -> JSONValue {
      .array(values.map { .object([("label", .text($0.label)), ("value", .string($0.value))]) })
    }
    return [
      ("id", .string(id.description)),
      ("externalId", .string(externalID)),
      ("contactType", .string(kind.description)),
      ("displayName", .string(displayName)),
      ("namePrefix", .text(namePrefix)),
      ("givenName", .text(givenName)),
      ("middleName", .text(middleName)),
      ("familyName", .text(familyName)),
      ("nameSuffix", .text(nameSuffix)),
      ("nickname", .text(nickname)),
      ("phoneticGivenName", .text(phoneticGivenName)),
      ("phoneticMiddleName", .text(phoneticMiddleName)),
      ("phoneticFamilyName", .text(phoneticFamilyName)),
      ("organizationName", .text(organizationName)),
      ("departmentName", .text(departmentName)),
      ("jobTitle", .text(jobTitle)),
      ("emailAddresses", labeled(emailAddresses)),
      ("phoneNumbers", labeled(phoneNumbers)),
      (
        "postalAddresses",
        .array(
          postalAddresses.map { address in
            .object([
              ("label", .text(address.label)), ("street", .string(address.value.street)),
              ("city", .string(address.value.city)), ("state", .string(address.value.state)),
              ("postalCode", .string(address.value.postalCode)), ("country", .string(address.value.country)),
              ("postOfficeBox", .string(address.value.postOfficeBox)),
              ("extendedAddress", .string(address.value.extendedAddress)),
            ])
          })
      ),
      ("urlAddresses", labeled(urlAddresses)),
      ("birthday", .text(birthday?.description)),
      ("anniversary", .text(anniversary?.description)),
      ("note", .text(note)),
      ("groupIds", .array(groupIDs.map { .string($0.description) })),
      ("containerId", .string(containerID.description)),
      ("additionalProperties", .array(additionalProperties.map(JSONValue.string))),
      ("version", .number(version.rawValue)),
      ("created", .text(creationDate?.description)),
      ("lastModified", .text(lastModifiedDate?.description)),
    ]
  }

  /// Table text that reads better than the JSON value's.
  package var tableCells: [String: String] {
    func labeled(_ values: [LabeledValue<String>]) -> String {
      values.map { ($0.label.map { "\($0): " } ?? "") + $0.value }.joined(separator: ", ")
    }
    return [
      "emailAddresses": labeled(emailAddresses), "phoneNumbers": labeled(phoneNumbers),
      "urlAddresses": labeled(urlAddresses),
      "postalAddresses": postalAddresses.map { address in
        (address.label.map { "\($0): " } ?? "")
          + [
            address.value.postOfficeBox, address.value.extendedAddress, address.value.street, address.value.city,
            address.value.state, address.value.postalCode, address.value.country,
          ].filter { !$0.isEmpty }.joined(separator: ", ")
      }.joined(separator: "; "),
    ]
  }
}

extension ContactGroup {
  /// The group as documented in docs/contacts.md's JSON shape.
  package var jsonFields: [(String, JSONValue)] {
    [
      ("id", .string(id.description)),
      ("externalId", .string(externalID)),
      ("name", .string(name)),
      ("containerId", .string(containerID.description)),
      ("version", .number(version.rawValue)),
      ("created", .text(creationDate?.description)),
      ("lastModified", .text(lastModifiedDate?.description)),
    ]
  }
}

extension ContactContainer {
  /// The address book as documented in docs/contacts.md's JSON shape.
  package var jsonFields: [(String, JSONValue)] {
    [
      ("id", .string(id.description)),
      ("title", .string(title)),
      ("local", .bool(isLocal)),
      ("davName", .string(davName)),
      ("creator", .text(creator)),
      ("allowsContentModifications", .bool(allowsContentModifications)),
      ("version", .number(version.rawValue)),
      ("created", .text(creationDate?.description)),
    ]
  }
}
