/// Where the app is in the store's history: after a read (``EventStore/lastReadToken``), or after
/// a change notice (``ChangeNotice/token``). Pass it to ``EventStore/changes(after:)`` to hear what
/// changed since, also in a later run of the app (keep ``description``, make it again with
/// ``init(_:)``), as `CNContactStore`'s history tokens are used.
///
/// It is opaque, and means something only to the server and store that gave it, for this app: the
/// server seals the log's positions, so that an app learns nothing from them of what others — the
/// person above all — write where it may not look. Two tokens cannot be compared; one taken
/// before the store was restored from an older backup is refused (`404`): fetch again and start
/// without one.
public struct ChangeToken: Sendable, Hashable, Codable, CustomStringConvertible {
  /// The token's text, as the server gave it.
  public let description: String

  /// The token of `text`, as ``description`` gave it; `nil` unless it has a token's shape
  /// (64 characters of base64url). Whether the server gave it is for the server to say.
  public init?(_ text: String) {
    guard text.utf8.count == 64,
      text.utf8.allSatisfy({ byte in
        (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte) || (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte)
          || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || byte == UInt8(ascii: "-")
          || byte == UInt8(ascii: "_")
      })
    else { return nil }
    description = text
  }

  public init(from decoder: any Decoder) throws {
    let text = try decoder.singleValueContainer().decode(String.self)
    guard let token = ChangeToken(text) else {
      throw DecodingError.dataCorrupted(
        DecodingError.Context(codingPath: decoder.codingPath, debugDescription: "not a change token: \(text)"))
    }
    self = token
  }

  public func encode(to encoder: any Encoder) throws {
    var container = encoder.singleValueContainer()
    try container.encode(description)
  }
}
