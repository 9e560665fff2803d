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

  /// The largest identifier, in UTF-8 bytes.
  public static let maximumIdentifierLength = 255

  /// The code stored in the log (see docs/log-format.md).
  var code: UInt8 {
    switch self {
    case .system: 0
    case .person: 1
    case .client: 2
    case .policy: 3
    }
  }

  /// The client identifier or policy name; empty for the system and the person.
  public var identifier: String {
    switch self {
    case .system, .person: ""
    case .client(let id), .policy(let id): id
    }
  }

  /// `system`, `person`, `client` or `policy`.
  public var typeName: String {
    switch self {
    case .system: "system"
    case .person: "person"
    case .client: "client"
    case .policy: "policy"
    }
  }

  public var description: String {
    switch self {
    case .system, .person: typeName
    case .client(let id), .policy(let id): "\(typeName):\(id)"
    }
  }

  /// Checks that the identifier is storable: 1 to 255 UTF-8 bytes, no control characters.
  func validate() throws(StoreError) {
    switch self {
    case .system, .person: return
    case .client(let id), .policy(let id):
      let count = id.utf8.count
      guard count > 0, count <= Self.maximumIdentifierLength else {
        throw .invalidInput("\(typeName) identifier must be 1 to \(Self.maximumIdentifierLength) bytes, got \(count)")
      }
      guard !Self.containsControlCharacter(id) else {
        throw .invalidInput("\(typeName) identifier must not contain control characters")
      }
    }
  }

  /// Whether `text` holds a control character (general category Cc): U+0000–U+001F and U+007F–U+009F,
  /// a set that Unicode's stability policy fixes forever. Checked on the UTF-8 bytes, where those are
  /// the bytes below 0x20, 0x7F, and 0xC2 followed by 0x80–0x9F, instead of looking up each scalar's
  /// properties, which cost more than the SHA-256 of a whole record on every append.
  private static func containsControlCharacter(_ text: String) -> Bool {
    var text = text
    return text.withUTF8 { bytes in
      var previous: UInt8 = 0
      for byte in bytes {
        if byte < 0x20 || byte == 0x7F || (previous == 0xC2 && byte <= 0x9F) { return true }
        previous = byte
      }
      return false
    }
  }
}
