/// What torture writers said they did: the commands they began and those that returned, read from
/// their journals (`begin TOKEN KIND RECORDS MATCH`, `ack TOKEN FIRST LAST`, `conflict TOKEN`,
/// `fail MESSAGE`, `map INITIAL FINAL`).
struct TortureJournal {
  /// One command a writer began.
  struct Command {
    let token: String
    let kind: String
    let records: Int
    let match: String
    /// The positions it appended, when acknowledged (`0...0` when the API did not say).
    var acknowledged: ClosedRange<UInt64>?
  }

  private(set) var commands: [String: Command] = [:]
  private(set) var conflicts = 0
  private(set) var failures: [String] = []
  /// Lines that are none of the above (a line cut short by a kill, at most one per writer).
  private(set) var unreadable = 0

  /// Reads journal text; later lines complete earlier ones.
  mutating func read(_ text: Substring) {
    for line in text.split(separator: "\n") {
      let fields = line.split(separator: " ", omittingEmptySubsequences: false)
      switch fields.first {
      case "begin" where fields.count == 5:
        if let records = Int(fields[3]) {
          let token = String(fields[1])
          commands[token] = Command(
            token: token, kind: String(fields[2]), records: records, match: String(fields[4]), acknowledged: nil)
        } else {
          unreadable += 1
        }
      case "ack" where fields.count == 4:
        if let first = UInt64(fields[2]), let last = UInt64(fields[3]), first <= last,
          commands[String(fields[1])] != nil
        {
          commands[String(fields[1])]?.acknowledged = first...last
        } else {
          unreadable += 1
        }
      case "conflict": conflicts += 1
      case "map": break
      case "fail": failures.append(fields.dropFirst().joined(separator: " "))
      default: unreadable += 1
      }
    }
  }

  /// The identifier of the client a command registers: its token in a bundle identifier
  /// (`com.torture.w1t0c2` for `~w1t0c2~`), which may not hold `~`.
  static func clientID(_ token: String) -> String { clientPrefix + token.filter { $0 != "~" } }

  /// The token of the command that registered `client` (``clientID(_:)``'s inverse).
  static func token(ofClient client: String) -> String { "~" + client.dropFirst(clientPrefix.count) + "~" }

  private static let clientPrefix = "com.torture."

  /// The tokens (`~w…t…c…~`, or within a client identifier `com.torture.w…t…c…`) written in
  /// `bytes`.
  static func tokens(in bytes: [UInt8]) -> [String] {
    var found: [String] = []
    var index = 0
    let prefix = Array(clientPrefix.utf8) + [UInt8(ascii: "w")]
    while index + 1 < bytes.count {
      if bytes[index...].starts(with: prefix) {
        var end = index + prefix.count
        while end < bytes.count, end - index < 64, isTokenByte(bytes[end]) { end += 1 }
        found.append("~w" + String(decoding: bytes[(index + prefix.count)..<end], as: UTF8.self) + "~")
        index = end
        continue
      }
      guard bytes[index] == UInt8(ascii: "~"), bytes[index + 1] == UInt8(ascii: "w") else {
        index += 1
        continue
      }
      var end = index + 2
      while end < bytes.count, end - index < 64, isTokenByte(bytes[end]) { end += 1 }
      if end < bytes.count, bytes[end] == UInt8(ascii: "~") {
        found.append(String(decoding: bytes[index...end], as: UTF8.self))
        index = end + 1
      } else {
        index += 1
      }
    }
    return found
  }

  private static func isTokenByte(_ byte: UInt8) -> Bool {
    (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || byte == UInt8(ascii: "t") || byte == UInt8(ascii: "c")
  }
}
