/// The forms a phone number is found by, without knowing the person's region: its digits as
/// written; for a number written internationally (`+44 20 7946 0000`, `0044 20 7946 0000`) its
/// country code and national number (`442079460000`) and the national number alone (`2079460000`);
/// for a number written nationally with a trunk prefix (`020 7946 0000`), the digits without it
/// (`2079460000`). A search looks for its own forms among them, so `555` finds `+1 555 010 2000`,
/// `020 7946` finds `+44 20 7946 0001`, and `+44 20 7946` finds `020 7946 0000`.
///
/// Country codes are split by ITU-T E.164's assignment, which is a prefix code: `1` and `7` are one
/// digit, the two-digit codes are listed, and every other code is three digits. A number written
/// nationally has no country: a search in international form finds it through its trunk prefix
/// `0`, which most countries outside North America use; a search may find more than a region-aware
/// one would, never less.
enum PhoneNumberForms {
  /// The two-digit country codes (zones 2–9); every other code of those zones has three digits.
  private static let twoDigitCodes: Set<Substring> = [
    "20", "27", "30", "31", "32", "33", "34", "36", "39", "40", "41", "43", "44", "45", "46", "47", "48", "49",
    "51", "52", "53", "54", "55", "56", "57", "58", "60", "61", "62", "63", "64", "65", "66", "81", "82", "84",
    "86", "90", "91", "92", "93", "94", "95", "98",
  ]

  /// The texts a stored number is indexed under (digits only, without duplicates).
  static func keys(_ text: String) -> [String] {
    let digits = ContactSearchKey.digits(text)
    guard !digits.isEmpty else { return [] }
    var keys = [digits]
    if let international = international(text, digits) {
      keys.append(String(international))
      if let national = national(international), !national.isEmpty { keys.append(String(national)) }
    } else if let trunkless = trunkless(digits) {
      keys.append(String(trunkless))
    }
    return unique(keys)
  }

  /// The prefixes a search for `text` looks for among the keys.
  static func prefixes(_ text: String) -> [String] {
    let digits = ContactSearchKey.digits(text)
    guard !digits.isEmpty else { return [] }
    if let international = international(text, digits) {
      guard !international.isEmpty else { return [] }
      var prefixes = [String(international)]
      if let national = national(international), !national.isEmpty { prefixes.append("0" + national) }
      return unique(prefixes)
    }
    return unique([digits] + (trunkless(digits).map { [String($0)] } ?? []))
  }

  /// The country code and national number of a number written internationally: after a `+`
  /// before its first digit, or after a leading `00`; `nil` for a number written nationally.
  private static func international(_ text: String, _ digits: String) -> Substring? {
    let beforeDigits = text.unicodeScalars.prefix { $0.properties.numericType != .decimal }
    if beforeDigits.contains("+") || beforeDigits.contains("\u{FF0B}") { return Substring(digits) }
    return digits.hasPrefix("00") ? digits.dropFirst(2) : nil
  }

  /// The national number after the country code; `nil` while the code is incomplete.
  private static func national(_ international: Substring) -> Substring? {
    guard let first = international.first else { return nil }
    let length = first == "1" || first == "7" ? 1 : twoDigitCodes.contains(international.prefix(2)) ? 2 : 3
    return international.count >= length ? international.dropFirst(length) : nil
  }

  /// The digits of a national number without its trunk prefix `0`.
  private static func trunkless(_ digits: String) -> Substring? {
    digits.count > 1 && digits.hasPrefix("0") && !digits.hasPrefix("00") ? digits.dropFirst() : nil
  }

  private static func unique(_ texts: [String]) -> [String] {
    var seen: Set<String> = []
    return texts.filter { seen.insert($0).inserted }
  }
}
