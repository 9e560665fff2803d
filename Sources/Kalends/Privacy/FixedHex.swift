/// Lowercase hexadecimal text of bytes, as token ids are written.
enum FixedHex {
  /// The bytes of `text`, or `nil` unless it is an even number of lowercase hex digits.
  static func bytes(_ text: String) -> [UInt8]? {
    let digits = Array(text.utf8)
    guard digits.count % 2 == 0 else { return nil }
    var bytes: [UInt8] = []
    bytes.reserveCapacity(digits.count / 2)
    for pair in stride(from: 0, to: digits.count, by: 2) {
      guard let high = value(digits[pair]), let low = value(digits[pair + 1]) else { return nil }
      bytes.append(high << 4 | low)
    }
    return bytes
  }

  private static func value(_ digit: UInt8) -> UInt8? {
    switch digit {
    case UInt8(ascii: "0")...UInt8(ascii: "9"): digit - UInt8(ascii: "0")
    case UInt8(ascii: "a")...UInt8(ascii: "f"): digit - UInt8(ascii: "a") + 10
    default: nil
    }
  }
}
