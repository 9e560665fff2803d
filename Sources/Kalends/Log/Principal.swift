/// Who caused a record: the system, the person who owns the store, an app (client), or a policy.
public enum Principal: Hashable, Sendable, CustomStringConvertible {
  /// Kalends itself (store creation, maintenance).
  case system
  /// The person who owns the store, acting directly or in Settings.
  case person
  /// An app, by its client identifier (for example `com.example.planner`).
  case client(String)
  /// A management policy, by its name (for example `mdm:school-profile`).
  case policy(String)
  /// An account or subscription the store syncs (a ``CalendarSource``), by its identifier: the
  /// author of what the store applied from it, as a fact from outside the person and the apps.
  case source(String)

  /// The largest identifier, in UTF-8 bytes.
  public static let maximumIdentifierLength = 255

  /// The code stored in the log (see docs/log-format.md).
  var code: UInt8 {
    switch self {
    case .system: 0
    case .person: 1
    case .client: 2
    case .policy: 3
    case .source: 4
    }
  }

  /// The client identifier or policy name; empty for the system and the person.
  public var identifier: String {
    switch self {
    case .system, .person: ""
    case .client(let id), .policy(let id), .source(let id): id
    }
  }

  /// `system`, `person`, `client`, `policy` or `source`.
  public var typeName: String {
    switch self {
    case .system: "system"
    case .person: "person"
    case .client: "client"
    case .policy: "policy"
    case .source: "source"
    }
  }

  public var description: String {
    switch self {
    case .system, .person: typeName
    case .client(let id), .policy(let id), .source(let id): "\(typeName):\(id)"
    }
  }

  /// Checks that the identifier is one a person can tell apart from every other: 1 to 255 bytes of
  /// ASCII letters, digits, `-` and `.` for a client (what Apple's `CFBundleIdentifier` allows, so
  /// that no look-alike letter, invisible or reordering character can pass for another app), and
  /// also `_` and `:` for a policy (`mdm:school-profile`).
  func validate() throws(StoreError) {
    switch self {
    case .system, .person: return
    case .source(let id):
      guard ObjectID(id) != nil else { throw .invalidInput("source identifier \"\(Self.escaped(id))\" is not a UUID") }
    case .client(let id), .policy(let id):
      let count = id.utf8.count
      guard count > 0, count <= Self.maximumIdentifierLength else {
        throw .invalidInput("\(typeName) identifier must be 1 to \(Self.maximumIdentifierLength) bytes, got \(count)")
      }
      let isPolicy = if case .policy = self { true } else { false }
      // The principals' own names would read as another kind of actor in the audit's tables.
      guard isPolicy || !Self.reservedClientIDs.contains(id.lowercased()) else {
        throw .invalidInput("\(id) is reserved: it names an actor, not an app")
      }
      guard id.utf8.allSatisfy({ Self.isIdentifierByte($0, policy: isPolicy) }) else {
        throw .invalidInput(
          "\(typeName) identifier \"\(Self.escaped(id))\" may hold only ASCII letters, digits, '-' and '.'\(isPolicy ? ", '_' and ':'" : "")"
        )
      }
    }
  }

  /// Names no app may take.
  static let reservedClientIDs: Set<String> = ["system", "person", "client", "policy", "owner"]

  private static func isIdentifierByte(_ byte: UInt8, policy: Bool) -> Bool {
    switch byte {
    case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
      UInt8(ascii: "0")...UInt8(ascii: "9"),
      UInt8(ascii: "-"), UInt8(ascii: "."):
      true
    case UInt8(ascii: "_"), UInt8(ascii: ":"): policy
    default: false
    }
  }

  /// `text` with every scalar outside printable ASCII written as `\u{HEX}`, so that an error shows
  /// what a look-alike identifier really holds.
  static func escaped(_ text: String) -> String {
    text.unicodeScalars.map { $0.value >= 0x20 && $0.value < 0x7F ? String($0) : "\\u{\(String($0.value, radix: 16))}" }
      .joined()
  }
}
