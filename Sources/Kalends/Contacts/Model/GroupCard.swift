/// A group as a CardDAV address object resource (RFC 6352 §5.1; vCard 4.0's `KIND:group` with
/// `MEMBER`, or Apple's `X-ADDRESSBOOKSERVER-KIND`/`-MEMBER` in vCard 3.0): the group and the `UID`s
/// of its members.
///
/// Membership is held by the contacts (``Contact/groupIDs``), so the card is assembled when read:
/// the members' `UID`s, then those its last stored card named that no contact holds
/// (kept in its state), each once, sorted.
public struct GroupCard: Hashable, Sendable {
  /// The group.
  public var group: ContactGroup
  /// The `UID`s of the members, as `MEMBER` names them (bare of `urn:uuid:`).
  public var memberUIDs: [String]

  /// A card of `group` with these members.
  public init(group: ContactGroup, memberUIDs: [String]) {
    self.group = group
    self.memberUIDs = memberUIDs
  }

  /// The group's card of one vCard 3.0 or 4.0 text holding exactly one card, of a group.
  ///
  /// - Throws: ``VCardError`` naming the line of the first problem; ``VCardError/Reason/refused(_:)``
  ///   for several cards, or a contact's.
  public init(vCard bytes: [UInt8]) throws(VCardError) {
    guard case .group(let card) = try AddressObject(vCard: bytes) else {
      throw VCardError(line: 1, .refused("a contact is not a group"))
    }
    self = card
  }

  /// The name a CardDAV client finds it at: ``ContactGroup/resourceName``, else its `UID`.
  public var name: String { group.resourceName ?? group.externalID }

  /// The card as one vCard of `version`.
  public func vCard(_ version: VCardVersion) -> String {
    var writer = VCardWriter(version: version)
    writer.write(group, members: memberUIDs)
    return writer.text
  }

  /// A value that changes whenever the card would read differently — the group saved again, a
  /// member joining or leaving — and otherwise stays: what its entity tag is made from, and what
  /// `EventStore.putGroup(_:named:in:condition:)` checks a condition against. It is a digest
  /// (FNV-1a, 64 bits) of the group's version and its members' `UID`s, not a position of the log:
  /// membership changes are saves of contacts, and no single position stands for them.
  public var contentVersion: LogPosition {
    var hash: UInt64 = 0xcbf2_9ce4_8422_2325
    func mix(_ byte: UInt8) {
      hash ^= UInt64(byte)
      hash &*= 0x0000_0100_0000_01b3
    }
    for shift in stride(from: 56, through: 0, by: -8) {
      mix(UInt8(truncatingIfNeeded: group.version.rawValue >> shift))
    }
    for uid in memberUIDs.sorted() {
      for byte in uid.utf8 { mix(byte) }
      mix(0)
    }
    return LogPosition(hash)
  }
}
