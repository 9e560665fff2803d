/// A date that may lack its year, as a birthday often does (Contacts' birthday `DateComponents`,
/// vCard's `--MMDD`).
public struct ContactDate: Hashable, Sendable, CustomStringConvertible {
  /// The year, or `nil` when unknown.
  public let year: Int?
  /// The month, 1–12.
  public let month: Int
  /// The day of the month.
  public let day: Int

  /// A date; `nil` unless it exists (February 29 needs a leap year, or no year).
  public init?(year: Int?, month: Int, day: Int) {
    guard (1...12).contains(month), day >= 1 else { return nil }
    if let year {
      guard (1...9999).contains(year), Int64(day) <= CivilDate.daysInMonth(year: Int64(year), month: Int64(month))
      else { return nil }
    } else {
      guard Int64(day) <= CivilDate.daysInMonth(year: 2000, month: Int64(month)) else { return nil }
    }
    self.year = year
    self.month = month
    self.day = day
  }

  /// Reads `1985-04-12`, `19850412`, `--04-12` or `--0412` (RFC 6350 §4.3.1, vCard 3.0's ISO 8601
  /// form, and the year-less forms); `nil` for anything else.
  public init?(parsing text: String) {
    let digits = text.filter { $0 != "-" }
    guard digits.allSatisfy(\.isASCII), digits.allSatisfy(\.isNumber) else { return nil }
    if text.hasPrefix("--"), digits.count == 4 {
      self.init(year: nil, month: Int(digits.prefix(2))!, day: Int(digits.suffix(2))!)
    } else if !text.hasPrefix("-"), digits.count == 8, text.count == 8 || text.count == 10 {
      if text.count == 10 {
        let bytes = Array(text.utf8)
        guard bytes[4] == UInt8(ascii: "-"), bytes[7] == UInt8(ascii: "-") else { return nil }
      }
      self.init(
        year: Int(digits.prefix(4))!, month: Int(digits.dropFirst(4).prefix(2))!, day: Int(digits.suffix(2))!)
    } else {
      return nil
    }
  }

  /// `1985-04-12`, or `--04-12` without a year.
  public var description: String {
    func two(_ n: Int) -> String { n < 10 ? "0\(n)" : "\(n)" }
    guard let year else { return "--\(two(month))-\(two(day))" }
    let padded = String(repeating: "0", count: max(0, 4 - String(year).count)) + String(year)
    return "\(padded)-\(two(month))-\(two(day))"
  }
}
