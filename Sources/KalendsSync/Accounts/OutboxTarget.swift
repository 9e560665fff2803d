import Kalends
import KalendsFormats

/// One account collection whose outbox `CollectionSend` sends: what waits, how each waiting
/// object is sent, how deliveries are recorded, and how the server's version is taken when the
/// server would not take the local one.
protocol OutboxTarget {
  /// One object waiting to go out.
  associatedtype Entry
  /// The collection on the server, as the store mirrors it.
  var collection: RemoteCollection? { get }
  /// What the objects' names end with on the server (`.ics`, `.vcf`).
  static var suffix: String { get }
  /// The media type of an object sent.
  static var contentType: String { get }
  /// What waits, in the order of its first change.
  func waiting() throws(AccountError) -> [Entry]
  static func name(of entry: Entry) -> String
  /// The server's `ETag` the change was based on; `nil` when the server does not hold it.
  static func baseEntityTag(of entry: Entry) -> String?
  /// The text to `PUT`; `nil` when it was removed here.
  static func body(of entry: Entry) -> String?
  /// Records, in one transaction, that the server holds each entry with the `ETag` it answered.
  func record(_ delivered: [(Entry, String?)]) throws(AccountError)
  /// Applies the server's version of `name` (its text with `entityTag`; `nil`: it holds none) as a
  /// sync does, recording the local change as a conflict.
  func adopt(name: String, entityTag: String?, text: [UInt8]?) throws(AccountError) -> RemoteApply
}

/// The outbox of an account's calendar: calendar objects (`EventStore.outgoing(inCalendar:)`).
struct CalendarOutbox: OutboxTarget {
  let store: EventStore
  let calendar: EventCalendar

  var collection: RemoteCollection? { calendar.remote }
  static var suffix: String { ".ics" }
  static var contentType: String { "text/calendar; charset=utf-8" }

  func waiting() throws(AccountError) -> [OutgoingObject] {
    try AccountError.fromStore { () throws(StoreError) in try store.outgoing(inCalendar: calendar.id) }
  }

  static func name(of entry: OutgoingObject) -> String { entry.name }
  static func baseEntityTag(of entry: OutgoingObject) -> String? { entry.baseEntityTag }
  static func body(of entry: OutgoingObject) -> String? { entry.object?.file.serialized() }

  func record(_ delivered: [(OutgoingObject, String?)]) throws(AccountError) {
    try AccountError.fromStore { () throws(StoreError) in
      try store.recordDeliveries(delivered.map { (object: $0.0, entityTag: $0.1) }, inCalendar: calendar.id)
    }
  }

  func adopt(name: String, entityTag: String?, text: [UInt8]?) throws(AccountError) -> RemoteApply {
    let change: RemoteChange
    if let text, let entityTag {
      switch CollectionSync.object(text, name: name, in: calendar.id) {
      case .success(let object): change = .stored(name: name, entityTag: entityTag, object: object)
      case .failure(let refusal): throw .notDAV("the server's version of \(name) cannot be taken: \(refusal.reason)")
      }
    } else {
      change = .removed(name: name)
    }
    return try AccountError.fromStore { () throws(StoreError) in try store.applyRemote([change], to: calendar.id) }
  }
}

/// The outbox of an account's address book: cards (`ContactStore.outgoingCards(inContainer:)`),
/// sent as vCard 3.0 — what every CardDAV server takes (Google's takes no other).
struct AddressBookOutbox: OutboxTarget {
  let store: ContactStore
  let container: ContactContainer

  var collection: RemoteCollection? { container.remote }
  static var suffix: String { ".vcf" }
  static var contentType: String { "text/vcard; charset=utf-8" }

  func waiting() throws(AccountError) -> [OutgoingCard] {
    try AccountError.fromStore { () throws(StoreError) in try store.outgoingCards(inContainer: container.id) }
  }

  static func name(of entry: OutgoingCard) -> String { entry.name }
  static func baseEntityTag(of entry: OutgoingCard) -> String? { entry.baseEntityTag }
  static func body(of entry: OutgoingCard) -> String? { entry.card?.vCard(.v3) }

  func record(_ delivered: [(OutgoingCard, String?)]) throws(AccountError) {
    try AccountError.fromStore { () throws(StoreError) in
      try store.recordCardDeliveries(delivered.map { (card: $0.0, entityTag: $0.1) }, inContainer: container.id)
    }
  }

  func adopt(name: String, entityTag: String?, text: [UInt8]?) throws(AccountError) -> RemoteApply {
    let change: RemoteCardChange
    if let text, let entityTag {
      switch AddressBookSync.card(text) {
      case .success(let card): change = .stored(name: name, entityTag: entityTag, card: card)
      case .failure(let refusal): throw .notDAV("the server's version of \(name) cannot be taken: \(refusal.reason)")
      }
    } else {
      change = .removed(name: name)
    }
    return try AccountError.fromStore { () throws(StoreError) in
      try store.applyRemoteCards([change], to: container.id)
    }
  }
}
