internal import Foundation

/// The keys of `contacts.search`: `field (1) ‖ normalized text ‖ 0x00 ‖ id (16)`, so that every
/// contact whose text in a field starts with a prefix is one range of keys.
///
/// Names are split into words, each folded (case, diacritics and width: "Ørsted" and "orsted"
/// meet, "José" and "jose"); an email address is folded whole; a phone number is indexed by its
/// digits in the forms of ``PhoneNumberForms`` (as written, with and without its country code or
/// trunk prefix), so that "+1 (555) 010-2000" is found by "1555", "+1 555" and "555". External
/// identifiers are their digest, for imports to find the card a `UID` names.
enum ContactSearchKey {
  /// Which text a key indexes.
  enum Field: UInt8 {
    case name = 1
    case email = 2
    case phone = 3
    case contactExternalID = 4
    case groupExternalID = 5
    /// The name a CardDAV client stored a contact under, when it is not its `UID`.
    case contactResourceName = 6
    /// The name a CardDAV client stored a group under, when it is not its `UID`.
    case groupResourceName = 7
    /// A `UID` (bare of `urn:uuid:`) a group's card names as a member that was no contact when the
    /// group was stored (``ContactGroup/pendingMembers``): the key ends with the group's id.
    case pendingMember = 8
    /// A contact or group of a container (``containerKey(_:_:_:)``).
    case containerMember = 9
    /// A contact's birthday or anniversary, by month and day (``dateKey(_:_:_:)``).
    case date = 10
  }

  /// The key listing `date`, the contact `id`'s birthday or anniversary (`kind`): `10 ‖ month (1) ‖
  /// day (1) ‖ kind (1) ‖ year (2, big-endian; 0 when unknown) ‖ id (16)`, so that the dates of a
  /// day are one range of keys, and the birthdays calendar places them without reading a contact.
  static func dateKey(_ date: ContactDate, _ kind: BirthdayKind, _ id: ObjectID) -> [UInt8] {
    let year = date.year ?? 0
    return [
      Field.date.rawValue, UInt8(date.month), UInt8(date.day), kind.rawValue, UInt8(year >> 8), UInt8(year & 0xFF),
    ]
      + id.bytes
  }

  /// The entry a ``dateKey(_:_:_:)`` names; `nil` for a key of another form.
  static func dateEntry(_ key: some Collection<UInt8>) -> BirthdayEntry? {
    let bytes = Array(key)
    guard bytes.count == 22, bytes[0] == Field.date.rawValue, let kind = BirthdayKind(rawValue: bytes[3]) else {
      return nil
    }
    let year = Int(bytes[4]) << 8 | Int(bytes[5])
    guard let date = ContactDate(year: year == 0 ? nil : year, month: Int(bytes[1]), day: Int(bytes[2])),
      let contact = ObjectID(bytes: bytes[6...])
    else { return nil }
    return BirthdayEntry(contact: contact, kind: kind, date: date)
  }

  /// The key listing the contact or group `id` (of `kind`) in `container`: `9 ‖ container (16) ‖
  /// kind (1) ‖ id (16)`; without `id`, the prefix of that container's objects of that kind.
  static func containerKey(_ container: ObjectID, _ kind: ContactObjectKind, _ id: ObjectID?) -> [UInt8] {
    [Field.containerMember.rawValue] + container.bytes + [kind.rawValue] + (id?.bytes ?? [])
  }

  /// Texts are cut to this many bytes (at a character boundary): LMDB keys are at most 511 bytes,
  /// and a prefix search never needs more.
  static let maximumTextLength = 120

  /// The folded form of `text` that names are compared in: without case, diacritics or width,
  /// and with the Latin letters that do not decompose written as their base letters ("Ørsted" as
  /// "orsted", "Łódź" as "lodz", "Straße" as "strasse").
  static func folded(_ text: String) -> String {
    // ASCII folds to its lower case: no call into Foundation for the common case.
    if text.utf8.allSatisfy({ $0 < 0x80 }) { return text.lowercased() }
    let folded = text.folding(options: [.caseInsensitive, .diacriticInsensitive, .widthInsensitive], locale: nil)
    guard folded.unicodeScalars.contains(where: { !$0.isASCII }) else { return folded }
    var out = ""
    for scalar in folded.unicodeScalars {
      if let base = baseLetters[scalar] { out += base } else { out.unicodeScalars.append(scalar) }
    }
    return out
  }

  /// Letters with a stroke or ligature, which Unicode does not decompose into a base letter.
  private static let baseLetters: [Unicode.Scalar: String] = [
    "ø": "o", "đ": "d", "ł": "l", "ħ": "h", "ŧ": "t", "ß": "ss", "æ": "ae", "œ": "oe", "þ": "th", "ı": "i",
  ]

  /// The words of a name field, folded: split at whitespace and punctuation other than `'`/`-`
  /// inside a word.
  static func words(_ text: String) -> [String] {
    folded(text).split { !($0.isLetter || $0.isNumber || $0 == "'" || $0 == "-") }.map(String.init)
  }

  /// The folded form of an email address, without surrounding spaces.
  static func email(_ text: String) -> String {
    folded(text.trimmingCharacters(in: .whitespaces))
  }

  /// The digits of a phone number (any script's decimal digits read as ASCII).
  static func digits(_ text: String) -> String {
    String(
      text.unicodeScalars.compactMap { scalar in
        scalar.properties.numericType == .decimal
          ? scalar.properties.numericValue.map { Character(String(Int($0))) } : nil
      })
  }

  /// Every key text of `contact`, by field, without duplicates.
  static func texts(of contact: Contact) -> [(Field, [UInt8])] {
    var out: Set<[UInt8]> = []
    var keys: [(Field, [UInt8])] = []
    func add(_ field: Field, _ text: String) {
      let bytes = clipped(text)
      guard !bytes.isEmpty, out.insert([field.rawValue] + bytes).inserted else { return }
      keys.append((field, bytes))
    }
    let names = [
      contact.givenName, contact.middleName, contact.familyName, contact.nickname, contact.organizationName,
      contact.phoneticGivenName, contact.phoneticMiddleName, contact.phoneticFamilyName,
    ]
    for name in names.compactMap({ $0 }) { for word in words(name) { add(.name, word) } }
    for address in contact.emailAddresses { add(.email, Self.email(address.value)) }
    for phone in contact.phoneNumbers { for form in PhoneNumberForms.keys(phone.value) { add(.phone, form) } }
    return keys
  }

  /// The UTF-8 bytes of `text`, cut to ``maximumTextLength`` at a scalar boundary.
  static func clipped(_ text: String) -> [UInt8] {
    var bytes = Array(text.utf8)
    guard bytes.count > maximumTextLength else { return bytes }
    var end = maximumTextLength
    while end > 0, bytes[end] & 0xC0 == 0x80 { end -= 1 }
    bytes.removeSubrange(end...)
    return bytes
  }

  /// The key of `text` (already normalized and clipped) in `field` for the object `id`.
  static func key(_ field: Field, _ text: [UInt8], _ id: ObjectID) -> [UInt8] {
    var key = [field.rawValue] + text
    key.append(0)
    id.append(to: &key)
    return key
  }

  /// The key of an external identifier in `field` for the object `id`.
  static func externalKey(_ field: Field, _ external: String, _ id: ObjectID?) -> [UInt8] {
    let digest = Array(external.utf8).withUnsafeBytes(ObjectProjection.externalDigest)
    var key = [field.rawValue]
    RecordCodec.appendBigEndian(digest.0, to: &key)
    RecordCodec.appendBigEndian(digest.1, to: &key)
    id?.append(to: &key)
    return key
  }
}
