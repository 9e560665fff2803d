import Foundation
import Kalends
import KalendsFormats

/// The changes a JSON body states to a contact, with the names `contact show` prints
/// (docs/contacts.md): the name and text fields, `contactType`, `birthday`, `anniversary`, `emailAddresses`,
/// `phoneNumbers`, `urlAddresses` (`[{"label", "value"}]`) and `postalAddresses`. A field left out
/// is left as it is; `null` or an empty text clears it; a list replaces the whole list.
struct ContactEdit: Sendable {
  /// The fields the body names.
  private let present: Set<String>
  /// A contact holding the body's values in those fields.
  private let template: Contact

  static var textFields: [(String, WritableKeyPath<Contact, String?>)] {
    [
      ("namePrefix", \.namePrefix), ("givenName", \.givenName), ("middleName", \.middleName),
      ("familyName", \.familyName), ("nameSuffix", \.nameSuffix), ("nickname", \.nickname),
      ("phoneticGivenName", \.phoneticGivenName), ("phoneticMiddleName", \.phoneticMiddleName),
      ("phoneticFamilyName", \.phoneticFamilyName), ("organizationName", \.organizationName),
      ("departmentName", \.departmentName), ("jobTitle", \.jobTitle), ("note", \.note),
    ]
  }
  static let listFields = ["emailAddresses", "phoneNumbers", "urlAddresses", "postalAddresses"]

  init(json body: [String: Any]) throws(RequestError) {
    let known = Set(Self.textFields.map(\.0) + Self.listFields + ["contactType", "birthday", "anniversary"])
    if let unknown = body.keys.sorted().first(where: { !known.contains($0) }) {
      throw RequestError.invalidInput("unknown field \"\(unknown)\"")
    }
    var template = Contact()
    try Self.read(body, into: &template)
    self.template = template
    present = Set(body.keys)
  }

  /// Applies the body to `contact`: every field it names, as it gave it.
  func apply(to contact: inout Contact) throws(RequestError) {
    for (key, path) in Self.textFields where present.contains(key) { contact[keyPath: path] = template[keyPath: path] }
    if present.contains("contactType") { contact.kind = template.kind }
    if present.contains("birthday") { contact.birthday = template.birthday }
    if present.contains("anniversary") { contact.anniversary = template.anniversary }
    if present.contains("emailAddresses") { contact.emailAddresses = template.emailAddresses }
    if present.contains("phoneNumbers") { contact.phoneNumbers = template.phoneNumbers }
    if present.contains("urlAddresses") { contact.urlAddresses = template.urlAddresses }
    if present.contains("postalAddresses") { contact.postalAddresses = template.postalAddresses }
  }

  /// Reads the values of `body` into `contact`, checking their types.
  private static func read(_ body: [String: Any], into contact: inout Contact) throws(RequestError) {
    func text(_ key: String) throws(RequestError) -> String?? {
      guard let value = body[key] else { return nil }
      if value is NSNull { return .some(nil) }
      guard let text = value as? String else { throw RequestError.invalidInput("\(key) must be text or null") }
      return .some(text.isEmpty ? nil : text)
    }
    for (key, path) in textFields {
      if let value = try text(key) { contact[keyPath: path] = value }
    }
    if let kind = try text("contactType") {
      guard let kind = kind.flatMap(ContactTypeArgument.init(rawValue:)) else {
        throw RequestError.invalidInput("contactType is person or organization")
      }
      contact.kind = kind.kind
    }
    for (key, path) in [("birthday", \Contact.birthday), ("anniversary", \Contact.anniversary)] {
      guard let value = try text(key) else { continue }
      if let value {
        guard let date = ContactDate(parsing: value) else {
          throw RequestError.invalidInput("\(key) \"\(value)\" is not a date such as 1985-04-12 or --04-12")
        }
        contact[keyPath: path] = date
      } else {
        contact[keyPath: path] = nil
      }
    }
    func entries(_ key: String) throws(RequestError) -> [[String: Any]]? {
      guard let value = body[key] else { return nil }
      guard let list = value as? [[String: Any]] else {
        throw RequestError.invalidInput("\(key) must be an array of objects")
      }
      return list
    }
    func string(_ entry: [String: Any], _ key: String, in list: String) throws(RequestError) -> String? {
      guard let value = entry[key], !(value is NSNull) else { return nil }
      guard let text = value as? String else { throw RequestError.invalidInput("\(list): \(key) must be text") }
      return text
    }
    for (key, path) in [
      ("emailAddresses", \Contact.emailAddresses), ("phoneNumbers", \.phoneNumbers), ("urlAddresses", \.urlAddresses),
    ] {
      guard let list = try entries(key) else { continue }
      var values: [LabeledValue<String>] = []
      for entry in list {
        guard let value = try string(entry, "value", in: key) else {
          throw RequestError.invalidInput("\(key): a value is missing")
        }
        values.append(LabeledValue(label: try string(entry, "label", in: key), value: value))
      }
      contact[keyPath: path] = values
    }
    if let list = try entries("postalAddresses") {
      var values: [LabeledValue<PostalAddress>] = []
      for entry in list {
        // The parts are text or absent (the document says so); only the label may be null.
        func part(_ name: String) throws(RequestError) -> String {
          if entry[name] is NSNull {
            throw RequestError.invalidInput("postalAddresses: \(name) must be text, not null")
          }
          return try string(entry, name, in: "postalAddresses") ?? ""
        }
        values.append(
          LabeledValue(
            label: try string(entry, "label", in: "postalAddresses"),
            value: PostalAddress(
              street: try part("street"), city: try part("city"), state: try part("state"),
              postalCode: try part("postalCode"), country: try part("country"),
              postOfficeBox: try part("postOfficeBox"),
              extendedAddress: try part("extendedAddress"))))
      }
      contact.postalAddresses = values
    }
  }
}
