/// A card of an account's address book waiting to go out to its server
/// (``ContactStore/outgoingCards(inContainer:)``).
package struct OutgoingCard: Sendable {
  /// Its name in the collection.
  package let name: String
  /// The server's `ETag` the local change was based on (`If-Match`); `nil` when the server does
  /// not hold it (`If-None-Match: *`).
  package let baseEntityTag: String?
  /// The position of the last local change it carries.
  package let carries: LogPosition
  /// What the address book holds under the name (a contact's card, or a group's with its members);
  /// `nil` when it was removed here.
  package let card: AddressObject?
  /// The contact or group it is the card of, when the book holds one under the name.
  package let holder: (kind: Holder, id: ObjectID)?

  /// What holds a card.
  package enum Holder: Sendable { case contact, group }
}
