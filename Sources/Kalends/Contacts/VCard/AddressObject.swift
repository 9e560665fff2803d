/// What a CardDAV address object resource holds (RFC 6352 §5.1): one vCard, of a contact or of a
/// group.
package enum AddressObject: Hashable, Sendable {
  /// A person's or an organization's card.
  case contact(Contact)
  /// A group's card with its members' `UID`s.
  case group(GroupCard)

  /// The card of a vCard 3.0 or 4.0 text holding exactly one card. Properties Kalends does not
  /// model are kept (``Contact/additionalProperties``, ``ContactGroup/additionalProperties``).
  ///
  /// - Throws: ``VCardError`` naming the line of the first problem; ``VCardError/Reason/refused(_:)``
  ///   for a text of several cards.
  public init(vCard bytes: [UInt8]) throws(VCardError) {
    let cards = try VCardReader.cards(bytes)
    guard cards.count == 1 else {
      throw VCardError(
        line: cards.dropFirst().first?.line ?? 1, .refused("the text holds \(cards.count) cards, not one"))
    }
    switch cards[0] {
    case .contact(let contact, _): self = .contact(contact)
    case .group(let group, let members, _): self = .group(GroupCard(group: group, memberUIDs: members))
    }
  }
}

extension AddressObject {
  /// The name a CardDAV client finds it at: its resource name, else its `UID`.
  public var name: String {
    switch self {
    case .contact(let contact): contact.resourceName ?? contact.externalID
    case .group(let card): card.name
    }
  }

  /// The WebDAV dead properties of its resource (``Contact/clientProperties``,
  /// ``ContactGroup/clientProperties``).
  public var clientProperties: [String: String] {
    switch self {
    case .contact(let contact): contact.clientProperties
    case .group(let card): card.group.clientProperties
    }
  }

  /// What its entity tag is made from: a contact's ``Contact/version``, a group card's
  /// ``GroupCard/contentVersion``.
  public var entityVersion: LogPosition {
    switch self {
    case .contact(let contact): contact.version
    case .group(let card): card.contentVersion
    }
  }

  /// The card as one vCard of `version`.
  public func vCard(_ version: VCardVersion) -> String {
    switch self {
    case .contact(let contact): contact.vCard(version)
    case .group(let card): card.vCard(version)
    }
  }
}
