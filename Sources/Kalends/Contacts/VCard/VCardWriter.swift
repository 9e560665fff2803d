/// Writes contacts and groups as vCard 3.0 (RFC 2426) or 4.0 (RFC 6350): CRLF line ends, lines
/// folded at 75 octets, text escaped. What ``VCardReader`` reads back is what was written.
struct VCardWriter {
  /// The vCard version written.
  let version: VCardVersion
  private var out = ICalendarWriter()

  init(version: VCardVersion) { self.version = version }

  /// The text written so far.
  var text: String { out.text }

  /// Writes one contact.
  mutating func write(_ contact: Contact) {
    out.begin("VCARD")
    out.line("VERSION", version.rawValue)
    if version == .v4 { out.line("PRODID", "-//Kalends//Kalends//EN") }
    out.line("UID", ICalendarText.escaped(contact.externalID))
    if contact.kind == .organization {
      if version == .v4 { out.line("KIND", "org") } else { out.line("X-ABShowAs", "COMPANY") }
    }
    let name = [contact.familyName, contact.givenName, contact.middleName, contact.namePrefix, contact.nameSuffix]
    out.line("N", VCardText.structured(name.map { $0 ?? "" }))
    if !contact.additionalProperties.contains(where: Contact.isFormattedName) {
      out.line("FN", ICalendarText.escaped(contact.displayName.isEmpty ? "(no name)" : contact.displayName))
    }
    text("NICKNAME", contact.nickname)
    text("X-PHONETIC-FIRST-NAME", contact.phoneticGivenName)
    text("X-PHONETIC-MIDDLE-NAME", contact.phoneticMiddleName)
    text("X-PHONETIC-LAST-NAME", contact.phoneticFamilyName)
    if contact.organizationName != nil || contact.departmentName != nil {
      var parts = [contact.organizationName ?? ""]
      if let department = contact.departmentName { parts.append(department) }
      out.line("ORG", VCardText.structured(parts))
    }
    text("TITLE", contact.jobTitle)
    if let birthday = contact.birthday { out.line("BDAY", dateText(birthday)) }
    if let anniversary = contact.anniversary {
      out.line(version == .v4 ? "ANNIVERSARY" : "X-ANNIVERSARY", dateText(anniversary))
    }
    var labelGroup = 0
    func labeled(_ name: String, _ label: String?, _ value: String, extra: [String] = []) {
      var types = extra
      var group = ""
      if let label {
        if let words = VCardLabel.types(label) {
          types += words
        } else {
          labelGroup += 1
          group = "kalends\(labelGroup)."
        }
      }
      // One TYPE parameter per value: a comma list would need quotes in ICalendarWriter, and a
      // quoted list reads as one value in vCard 4.0.
      let parameters = types.map { ("TYPE", version == .v4 ? $0 : $0.uppercased()) }
      out.line(group + name, parameters, value)
      if let label, !group.isEmpty { out.line(group + "X-ABLabel", ICalendarText.escaped(label)) }
    }
    for email in contact.emailAddresses {
      labeled("EMAIL", email.label, ICalendarText.escaped(email.value), extra: version == .v3 ? ["internet"] : [])
    }
    for phone in contact.phoneNumbers { labeled("TEL", phone.label, ICalendarText.escaped(phone.value)) }
    for address in contact.postalAddresses {
      labeled("ADR", address.label, VCardText.structured(address.value.parts))
    }
    for url in contact.urlAddresses { labeled("URL", url.label, ICalendarText.escaped(url.value)) }
    text("NOTE", contact.note)
    for property in contact.additionalProperties { out.raw(property) }
    out.end("VCARD")
  }

  /// Writes one group with the external identifiers of its members.
  mutating func write(_ group: ContactGroup, members: [String]) {
    out.begin("VCARD")
    out.line("VERSION", version.rawValue)
    out.line("UID", ICalendarText.escaped(group.externalID))
    if version == .v4 {
      out.line("KIND", "group")
    } else {
      out.line("X-ADDRESSBOOKSERVER-KIND", "group")
      out.line("N", ICalendarText.escaped(group.name))
    }
    out.line("FN", ICalendarText.escaped(group.name))
    for member in members {
      out.line(version == .v4 ? "MEMBER" : "X-ADDRESSBOOKSERVER-MEMBER", "urn:uuid:" + VCardText.bareUID(member))
    }
    for property in group.additionalProperties { out.raw(property) }
    out.end("VCARD")
  }

  private mutating func text(_ name: String, _ value: String?) {
    if let value { out.line(name, ICalendarText.escaped(value)) }
  }

  /// `1985-04-12` or `--04-12` in 3.0; `19850412` or `--0412` in 4.0.
  private func dateText(_ date: ContactDate) -> String {
    version == .v3 ? date.description : date.description.replacingDashes()
  }
}

/// The vCard versions Kalends reads and writes.
public enum VCardVersion: String, Hashable, Sendable, CaseIterable {
  /// RFC 2426, what most address books exchange.
  case v3 = "3.0"
  /// RFC 6350.
  case v4 = "4.0"
}

extension String {
  /// `1985-04-12` as `19850412`, `--04-12` as `--0412`.
  fileprivate func replacingDashes() -> String {
    hasPrefix("--") ? "--" + dropFirst(2).filter { $0 != "-" } : filter { $0 != "-" }
  }
}
