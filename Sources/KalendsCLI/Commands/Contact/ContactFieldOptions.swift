import ArgumentParser
import Kalends
import KalendsCommandSupport
import KalendsFormats

/// The fields of a contact as options, shared by `contact add` and `contact update`: an option
/// given sets its field (an empty text clears it); a repeatable option given replaces the whole
/// list (one empty value empties it).
struct ContactFieldOptions: ParsableArguments {
  @Option(help: "The given (first) name.") var given: String?
  @Option(help: "The family (last) name.") var family: String?
  @Option(help: "The middle name.") var middle: String?
  @Option(help: ArgumentHelp("The name prefix (Dr., Ms.).", valueName: "prefix")) var namePrefix: String?
  @Option(help: ArgumentHelp("The name suffix (Jr., PhD).", valueName: "suffix")) var nameSuffix: String?
  @Option(help: "The nickname.") var nickname: String?
  @Option(help: ArgumentHelp("The phonetic given name.", valueName: "text")) var phoneticGiven: String?
  @Option(help: ArgumentHelp("The phonetic family name.", valueName: "text")) var phoneticFamily: String?
  @Option(help: "The organization (company).") var organization: String?
  @Option(help: "The department.") var department: String?
  @Option(help: ArgumentHelp("The job title.", valueName: "title")) var jobTitle: String?
  @Option(help: ArgumentHelp("The card is an organization's, not a person's.", valueName: "person|organization"))
  var type: ContactTypeArgument?

  @Option(
    help: ArgumentHelp(
      "An email address, optionally labeled: work=ann@example.com (repeatable).", valueName: "[label=]address"))
  var email: [String] = []
  @Option(
    help: ArgumentHelp(
      "A phone number, optionally labeled: mobile=+1 555 0100 (repeatable).", valueName: "[label=]number"))
  var phone: [String] = []
  @Option(help: ArgumentHelp("A URL, optionally labeled: homepage=https://… (repeatable).", valueName: "[label=]url"))
  var url: [String] = []
  @Option(
    help: ArgumentHelp(
      "A postal address: [label=]street;city;state;postal code;country (repeatable).", valueName: "[label=]address"))
  var address: [String] = []

  @Option(
    parsing: .unconditional,
    help: ArgumentHelp("The birthday: 1985-04-12, or --04-12 without a year.", valueName: "date"))
  var birthday: String?
  @Option(
    parsing: .unconditional,
    help: ArgumentHelp("The anniversary: 2010-06-19, or --06-19 without a year.", valueName: "date"))
  var anniversary: String?
  @Option(help: "A note.") var note: String?
  @Option(help: ArgumentHelp("A group's id (repeatable; replaces the groups).", valueName: "id")) var group: [String] =
    []

  /// `contact` with every option given applied.
  func apply(to contact: inout Kalends.Contact) throws {
    func set(_ value: String?, _ path: WritableKeyPath<Kalends.Contact, String?>) {
      if let value { contact[keyPath: path] = value.isEmpty ? nil : value }
    }
    set(given, \.givenName)
    set(family, \.familyName)
    set(middle, \.middleName)
    set(namePrefix, \.namePrefix)
    set(nameSuffix, \.nameSuffix)
    set(nickname, \.nickname)
    set(phoneticGiven, \.phoneticGivenName)
    set(phoneticFamily, \.phoneticFamilyName)
    set(organization, \.organizationName)
    set(department, \.departmentName)
    set(jobTitle, \.jobTitle)
    set(note, \.note)
    if let type { contact.kind = type.kind }
    if !email.isEmpty { contact.emailAddresses = Self.labeled(email) }
    if !phone.isEmpty { contact.phoneNumbers = Self.labeled(phone) }
    if !url.isEmpty { contact.urlAddresses = Self.labeled(url) }
    if !address.isEmpty {
      contact.postalAddresses = Self.labeled(address).map { labeled in
        let parts = labeled.value.split(separator: ";", omittingEmptySubsequences: false).map(String.init)
        let padded = parts + Array(repeating: "", count: max(0, 5 - parts.count))
        return LabeledValue(
          label: labeled.label,
          value: PostalAddress(
            street: padded[0], city: padded[1], state: padded[2], postalCode: padded[3],
            country: padded[4...].joined(separator: ";")))
      }
    }
    for (option, value, path) in [
      ("--birthday", birthday, \Kalends.Contact.birthday), ("--anniversary", anniversary, \.anniversary),
    ] {
      guard let value else { continue }
      if value.isEmpty {
        contact[keyPath: path] = nil
      } else {
        guard let date = ContactDate(parsing: value) else {
          throw CLIError.invalidInput("\(option): \"\(value)\" is not a date — write 1985-04-12 or --04-12")
        }
        contact[keyPath: path] = date
      }
    }
    if !group.isEmpty {
      contact.groupIDs = try group.filter { !$0.isEmpty }.map { text throws(CLIError) in
        try ObjectID(argument: text, option: "--group")
      }
    }
  }

  /// `[label=]value` arguments as labeled values; one empty argument is an empty list. A label is
  /// letters, digits, spaces, `-` and `_`, starting with a letter, before the first `=`.
  static func labeled(_ arguments: [String]) -> [LabeledValue<String>] {
    arguments.filter { !$0.isEmpty }.map { argument in
      if let equals = argument.firstIndex(of: "=") {
        let label = argument[..<equals]
        if let first = label.first, first.isLetter,
          label.allSatisfy({ $0.isLetter || $0.isNumber || $0 == " " || $0 == "-" || $0 == "_" })
        {
          return LabeledValue(label: String(label), value: String(argument[argument.index(after: equals)...]))
        }
      }
      return LabeledValue(value: argument)
    }
  }
}
