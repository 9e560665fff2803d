/// Reads vCard 3.0 (RFC 2426) and 4.0 (RFC 6350) files into contacts and groups.
///
/// Groups are read in both forms in use: vCard 4.0's `KIND:group` with `MEMBER`, and the
/// `X-ADDRESSBOOKSERVER-KIND`/`-MEMBER` that Apple writes into vCard 3.0. Properties Kalends does not
/// model are kept as written (``Contact/additionalProperties``). Any error names its line, and
/// nothing of the file is taken.
enum VCardReader {
  /// The cards of `bytes`, in file order.
  static func cards(_ bytes: [UInt8]) throws(VCardError) -> [VCardCard] {
    let lines: [ContentLine]
    do {
      lines = try ContentLineReader.lines(of: bytes)
    } catch {
      throw Self.converted(error)
    }
    var cards: [VCardCard] = []
    var open: [ContentLine]?
    var begin = 0
    for line in lines {
      switch (line.name, line.value.uppercased()) {
      case ("BEGIN", "VCARD"):
        guard open == nil else { throw VCardError(line: line.line, .mismatchedNesting("BEGIN:VCARD inside a card")) }
        open = []
        begin = line.line
      case ("END", "VCARD"):
        guard let card = open else { throw VCardError(line: line.line, .mismatchedNesting("END:VCARD outside a card")) }
        cards.append(try Self.card(card, begin: begin, end: line.line))
        open = nil
      default:
        guard open != nil else { throw VCardError(line: line.line, .notAVCard) }
        open!.append(line)
      }
    }
    if open != nil { throw VCardError(line: begin, .unexpectedEnd) }
    return cards
  }

  private static func converted(_ error: ICalendarError) -> VCardError {
    switch error.reason {
    case .invalidUTF8: VCardError(line: error.line, .invalidUTF8)
    case .lineTooLong(let octets): VCardError(line: error.line, .lineTooLong(octets: octets))
    case .truncated: VCardError(line: error.line, .unexpectedEnd)
    case .malformedLine(let detail): VCardError(line: error.line, .malformedLine(detail))
    default: VCardError(line: error.line, .malformedLine("\(error)"))
    }
  }

  /// The properties Kalends reads into fields; every other property is kept as written.
  private static let modelled: Set<String> = [
    "VERSION", "UID", "KIND", "X-ADDRESSBOOKSERVER-KIND", "N", "FN", "NICKNAME", "ORG", "TITLE", "NOTE", "BDAY",
    "ANNIVERSARY", "X-ANNIVERSARY", "X-EVOLUTION-ANNIVERSARY",
    "EMAIL", "TEL", "ADR", "URL", "MEMBER", "X-ADDRESSBOOKSERVER-MEMBER", "X-PHONETIC-FIRST-NAME",
    "X-PHONETIC-MIDDLE-NAME", "X-PHONETIC-LAST-NAME", "X-ABSHOWAS", "X-ABLABEL", "PRODID",
  ]

  private static func card(_ lines: [ContentLine], begin: Int, end: Int) throws(VCardError) -> VCardCard {
    guard let version = lines.first(where: { $0.name == "VERSION" }) else {
      throw VCardError(line: begin, .missingProperty("VERSION"))
    }
    guard version.value == "3.0" || version.value == "4.0" else {
      throw VCardError(line: version.line, .unsupportedVersion(version.value))
    }
    func first(_ name: String) -> ContentLine? { lines.first { $0.name == name } }
    func text(_ name: String) -> String? {
      first(name).map { ICalendarText.unescaped($0.value) }.flatMap { $0.isEmpty ? nil : $0 }
    }
    var appleLabels: [String: String] = [:]
    for line in lines where line.name == "X-ABLABEL" {
      if let group = line.group { appleLabels[group] = ICalendarText.unescaped(line.value) }
    }
    func label(_ line: ContentLine) -> String? {
      let types = line.parameters.filter { $0.name == "TYPE" }.flatMap(\.values)
      return VCardLabel.label(types: types, appleLabel: line.group.flatMap { appleLabels[$0] })
    }
    let kindValue = (first("KIND") ?? first("X-ADDRESSBOOKSERVER-KIND"))?.value.lowercased()
    let uid = first("UID").map { ICalendarText.unescaped($0.value) }.flatMap { $0.isEmpty ? nil : $0 }

    if kindValue == "group" {
      var group = ContactGroup(name: text("FN") ?? first("N").map { VCardText.components($0.value)[0] } ?? "")
      guard !group.name.isEmpty else { throw VCardError(line: begin, .missingProperty("FN (the group's name)")) }
      if let uid { group.externalID = uid }
      group.additionalProperties = lines.filter { !modelled.contains($0.name) }.map(\.text)
      let members = lines.filter { $0.name == "MEMBER" || $0.name == "X-ADDRESSBOOKSERVER-MEMBER" }
        .map { VCardText.memberUID($0.value) }
      return .group(group, members: members, line: begin)
    }

    var contact = Contact()
    if let uid { contact.externalID = uid }
    if kindValue == "org" || kindValue == "organization" || first("X-ABSHOWAS")?.value.uppercased() == "COMPANY" {
      contact.kind = .organization
    }
    func nonEmpty(_ value: String) -> String? { value.isEmpty ? nil : value }
    if let name = first("N") {
      let parts = VCardText.components(name.value) + Array(repeating: "", count: 5)
      contact.familyName = nonEmpty(parts[0])
      contact.givenName = nonEmpty(parts[1])
      contact.middleName = nonEmpty(parts[2])
      contact.namePrefix = nonEmpty(parts[3])
      contact.nameSuffix = nonEmpty(parts[4])
    }
    if let organization = first("ORG") {
      let parts = VCardText.components(organization.value)
      contact.organizationName = nonEmpty(parts[0])
      contact.departmentName = parts.count > 1 ? nonEmpty(parts[1...].joined(separator: ";")) : nil
    }
    let names = [contact.givenName, contact.familyName, contact.middleName, contact.namePrefix, contact.nameSuffix]
    if names.allSatisfy({ $0 == nil }), let full = text("FN"), full != contact.organizationName {
      // A card with a formatted name only (no N): the name is kept as the given name.
      contact.givenName = full
    }
    contact.nickname = text("NICKNAME")
    contact.jobTitle = text("TITLE")
    contact.note = text("NOTE")
    contact.phoneticGivenName = text("X-PHONETIC-FIRST-NAME")
    contact.phoneticMiddleName = text("X-PHONETIC-MIDDLE-NAME")
    contact.phoneticFamilyName = text("X-PHONETIC-LAST-NAME")
    func date(_ line: ContentLine) throws(VCardError) -> ContactDate {
      guard let date = ContactDate(parsing: line.value) else {
        throw VCardError(
          line: line.line,
          .invalidValue(
            property: line.name, value: line.value, expected: "a date such as 1985-04-12, 19850412 or --0412"))
      }
      return date
    }
    if let birthday = first("BDAY") { contact.birthday = try date(birthday) }
    // vCard 4.0's `ANNIVERSARY`; vCard 3.0 has none, and address books write `X-ANNIVERSARY` (KDE)
    // or `X-EVOLUTION-ANNIVERSARY` (Evolution).
    if let anniversary = first("ANNIVERSARY") ?? first("X-ANNIVERSARY") ?? first("X-EVOLUTION-ANNIVERSARY") {
      contact.anniversary = try date(anniversary)
    }
    let labelledGroups = Set(
      lines.filter { ["EMAIL", "TEL", "ADR", "URL"].contains($0.name) }.compactMap(\.group))
    for line in lines {
      switch line.name {
      case "EMAIL":
        contact.emailAddresses.append(LabeledValue(label: label(line), value: ICalendarText.unescaped(line.value)))
      case "TEL":
        var number = ICalendarText.unescaped(line.value)
        if number.lowercased().hasPrefix("tel:") { number = String(number.dropFirst(4)) }
        contact.phoneNumbers.append(LabeledValue(label: label(line), value: number))
      case "ADR":
        contact.postalAddresses.append(
          LabeledValue(label: label(line), value: PostalAddress(parts: VCardText.components(line.value))))
      case "URL":
        contact.urlAddresses.append(LabeledValue(label: label(line), value: ICalendarText.unescaped(line.value)))
      case "X-ABLABEL" where line.group.map { !labelledGroups.contains($0) } ?? true:
        // The label of a property Kalends keeps as written (Apple's related names, dates).
        contact.additionalProperties.append(line.text)
      case _ where modelled.contains(line.name):
        continue
      default:
        contact.additionalProperties.append(line.text)
      }
    }
    // A formatted name other than the one the name parts make ("Dr. Ada Lovelace (work)") is the
    // client's choice: kept as written, and written back instead of the derived one.
    if let formatted = first("FN"), let full = text("FN"), full != contact.displayName {
      contact.additionalProperties.insert(formatted.text, at: 0)
    }
    return .contact(contact, line: begin)
  }
}
