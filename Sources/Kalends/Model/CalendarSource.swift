/// Where a calendar comes from (EventKit's `EKSource`): a local store, a CalDAV or Exchange
/// account, a subscription. Calendars of one source share its identifier.
public struct CalendarSource: Hashable, Sendable {
  /// The kind of account.
  public enum Kind: UInt8, Hashable, Sendable, CaseIterable {
    case local = 0
    case exchange, calDAV, mobileMe, subscribed, birthdays
  }

  /// A stable identifier.
  public var id: ObjectID
  /// The account's display name.
  public var title: String
  /// The kind of account.
  public var kind: Kind

  /// A source.
  public init(id: ObjectID, title: String, kind: Kind) {
    self.id = id
    self.title = title
    self.kind = kind
  }

  /// The store's built-in local source.
  public static let local = CalendarSource(
    id: ObjectID("00000000-0000-4000-8000-000000000001")!, title: "On My Computer", kind: .local)
}
