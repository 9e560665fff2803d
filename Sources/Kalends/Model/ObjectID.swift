/// The stable identifier of a calendar, event or reminder: a random UUID that never changes, not
/// even when an event moves to another calendar (EventKit's `calendarItemIdentifier`, made stable).
public struct ObjectID: Hashable, Comparable, Sendable, CustomStringConvertible {
  /// The 16 bytes.
  public let bytes: [UInt8]

  /// Wraps 16 bytes; `nil` for any other count.
  public init?(bytes: some Collection<UInt8>) {
    guard bytes.count == 16 else { return nil }
    self.bytes = Array(bytes)
  }

  /// Parses the UUID text form (`1B4E28BA-2FA1-41D2-883F-0016D3CCA427`, any case, dashes optional).
  public init?(_ text: String) {
    let digits = text.filter { $0 != "-" }
    guard digits.utf8.count == 32, let bytes = Hex.decode(digits) else { return nil }
    self.init(bytes: bytes)
  }

  /// A new random identifier (a version 4 UUID).
  public static func random() -> ObjectID {
    ObjectID(bytes: StoreID.random().bytes)!
  }

  /// The canonical text: an uppercase UUID, as EventKit prints identifiers.
  public var description: String { StoreID(bytes: bytes)!.description.uppercased() }

  public static func < (lhs: ObjectID, rhs: ObjectID) -> Bool { lhs.bytes.lexicographicallyPrecedes(rhs.bytes) }
}
