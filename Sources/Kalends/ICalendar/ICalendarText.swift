/// The TEXT escapes of RFC 5545 §3.3.11 and the other small value types.
enum ICalendarText {
  /// TEXT with `\\`, `\;`, `\,` and `\n` read; any other escaped character stands for itself.
  static func unescaped(_ text: some StringProtocol) -> String {
    guard text.utf8.contains(UInt8(ascii: "\\")) else { return String(text) }
    var out: [UInt8] = []
    out.reserveCapacity(text.utf8.count)
    var escaping = false
    for byte in text.utf8 {
      if escaping {
        out.append(byte == UInt8(ascii: "n") || byte == UInt8(ascii: "N") ? 10 : byte)
        escaping = false
      } else if byte == UInt8(ascii: "\\") {
        escaping = true
      } else {
        out.append(byte)
      }
    }
    if escaping { out.append(UInt8(ascii: "\\")) }
    return String(decoding: out, as: UTF8.self)
  }

  /// TEXT as written: backslashes, semicolons, commas and newlines escaped (a CR before a newline dropped).
  static func escaped(_ text: String) -> String {
    guard text.utf8.contains(where: { $0 == 0x5C || $0 == 0x3B || $0 == 0x2C || $0 == 0x0A || $0 == 0x0D }) else {
      return text
    }
    var out: [UInt8] = []
    out.reserveCapacity(text.utf8.count + 8)
    for byte in text.utf8 {
      switch byte {
      case 0x5C, 0x3B, 0x2C: out += [0x5C, byte]
      case 0x0A: out += [0x5C, 0x6E]
      case 0x0D: continue
      default: out.append(byte)
      }
    }
    return String(decoding: out, as: UTF8.self)
  }

  /// The items of a TEXT list (`CATEGORIES:a,b\,c`), split at unescaped commas and unescaped.
  static func list(_ text: String) -> [String] {
    var items: [String] = []
    var current = Substring(text).startIndex
    var escaping = false
    var index = current
    while index < text.endIndex {
      let character = text[index]
      if escaping {
        escaping = false
      } else if character == "\\" {
        escaping = true
      } else if character == "," {
        items.append(unescaped(text[current..<index]))
        current = text.index(after: index)
      }
      index = text.index(after: index)
    }
    items.append(unescaped(text[current...]))
    return items.filter { !$0.isEmpty }
  }

  /// A DURATION (`-PT15M`, `P1W`, `P1DT2H`): nominal days (weeks are 7) and exact seconds.
  static func duration(_ text: String) -> (days: Int64, seconds: Int64)? {
    var bytes = Array(text.utf8)[...]
    var sign: Int64 = 1
    if bytes.first == UInt8(ascii: "-") {
      sign = -1
      bytes = bytes.dropFirst()
    } else if bytes.first == UInt8(ascii: "+") {
      bytes = bytes.dropFirst()
    }
    guard bytes.first == UInt8(ascii: "P") || bytes.first == UInt8(ascii: "p") else { return nil }
    bytes = bytes.dropFirst()
    var days: Int64 = 0
    var seconds: Int64 = 0
    var inTime = false
    var number: Int64? = nil
    var sawPart = false
    for byte in bytes {
      switch byte {
      case 48...57:
        let next = (number ?? 0).multipliedReportingOverflow(by: 10)
        guard !next.overflow, next.partialValue < 1_000_000_000 else { return nil }
        number = next.partialValue + Int64(byte - 48)
      case UInt8(ascii: "T"), UInt8(ascii: "t"):
        guard !inTime, number == nil else { return nil }
        inTime = true
      default:
        guard let value = number else { return nil }
        switch (byte | 0x20, inTime) {
        case (UInt8(ascii: "w"), false): days += 7 * value
        case (UInt8(ascii: "d"), false): days += value
        case (UInt8(ascii: "h"), true): seconds += 3600 * value
        case (UInt8(ascii: "m"), true): seconds += 60 * value
        case (UInt8(ascii: "s"), true): seconds += value
        default: return nil
        }
        number = nil
        sawPart = true
      }
    }
    guard sawPart, number == nil else { return nil }
    return (sign * days, sign * seconds)
  }

  /// A UTC-OFFSET (`+0100`, `-0430`, `+013045`) in seconds east of UTC.
  static func utcOffset(_ text: String) -> Int64? {
    let bytes = Array(text.utf8)
    guard bytes.count == 5 || bytes.count == 7, bytes[0] == UInt8(ascii: "+") || bytes[0] == UInt8(ascii: "-"),
      bytes[1...].allSatisfy({ (48...57).contains($0) })
    else { return nil }
    let digits = bytes[1...].map { Int64($0 - 48) }
    let hours = digits[0] * 10 + digits[1]
    let minutes = digits[2] * 10 + digits[3]
    let seconds = digits.count == 6 ? digits[4] * 10 + digits[5] : 0
    guard hours < 24, minutes < 60, seconds < 60 else { return nil }
    let value = hours * 3600 + minutes * 60 + seconds
    return bytes[0] == UInt8(ascii: "-") ? -value : value
  }

  /// A duration as written: `-PT15M`, `P1D`, `PT0S`.
  static func durationText(_ seconds: Int64) -> String {
    var rest = abs(seconds)
    var text = seconds < 0 ? "-P" : "P"
    if rest % 86_400 == 0 && rest > 0 {
      let days = rest / 86_400
      return text + (days % 7 == 0 ? "\(days / 7)W" : "\(days)D")
    }
    if rest >= 86_400 {
      text += "\(rest / 86_400)D"
      rest %= 86_400
    }
    text += "T"
    if rest >= 3600 { text += "\(rest / 3600)H" }
    if rest % 3600 >= 60 { text += "\(rest % 3600 / 60)M" }
    if rest % 60 != 0 || rest == 0 { text += "\(rest % 60)S" }
    return text
  }

  /// A UTC-OFFSET as written: `+0100`, `-0430`, `+013045`.
  static func offsetText(_ seconds: Int64) -> String {
    let sign = seconds < 0 ? "-" : "+"
    let value = abs(seconds)
    func two(_ n: Int64) -> String { n < 10 ? "0\(n)" : "\(n)" }
    let text = sign + two(value / 3600) + two(value % 3600 / 60)
    return value % 60 == 0 ? text : text + two(value % 60)
  }
}
