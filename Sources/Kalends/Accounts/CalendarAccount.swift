/// A CalDAV account whose calendars the store syncs (EventKit's `EKSource` of type CalDAV): a
/// ``CalendarSource`` of kind ``CalendarSource/Kind/calDAV`` with where it is and as whom.
///
/// Saved in the log (`sourceSaved`) by the person, so the audit says from which account each
/// record came. The password is not part of it, nor where the password comes from: those live in a
/// file beside the store that only the person may read (docs/accounts.md). Only the person's
/// session sees an account; an app's copy of one of its calendars names the source's title alone.
public struct CalendarAccount: Hashable, Sendable {
  /// The identifier, which is also its calendars' ``CalendarSource/id`` and the principal
  /// `source:ID` of every record its syncs write.
  public package(set) var id: ObjectID
  /// The name the person gave it ("Fastmail").
  public var title: String
  /// The user's principal (RFC 5397 `current-user-principal`), an absolute address.
  public var principal: String
  /// The user name it signs in with.
  public var user: String
  /// The calendar home (RFC 4791 §6.2.1), when the account has one.
  public var calendarHome: String?
  /// The address-book home (RFC 6352 §7.1.1), when the account has one.
  public var addressBookHome: String?
  /// The log position that last saved it; `.none` before it is first saved.
  public internal(set) var version: LogPosition = .none

  /// An account not yet saved.
  public init(
    title: String, principal: String, user: String, calendarHome: String?, addressBookHome: String? = nil
  ) {
    self.id = .random()
    self.title = title
    self.principal = principal
    self.user = user
    self.calendarHome = calendarHome
    self.addressBookHome = addressBookHome
  }

  /// The source its calendars belong to.
  public var source: CalendarSource { CalendarSource(id: id, title: title, kind: .calDAV) }

  /// Its state as `sourceSaved`'s field 5: 1 title, 2 kind, 3 principal, 4 user, 5 calendar home,
  /// 6 address-book home.
  var state: Payload {
    var state = Payload()
    state.append(tag: 1, string: title)
    state.append(tag: 2, unsigned: UInt64(CalendarSource.Kind.calDAV.rawValue))
    state.append(tag: 3, string: principal)
    state.append(tag: 4, string: user)
    if let calendarHome { state.append(tag: 5, string: calendarHome) }
    if let addressBookHome { state.append(tag: 6, string: addressBookHome) }
    return state
  }

  /// The account saved at `version` with `state`.
  init(id: ObjectID, version: LogPosition, _ state: PayloadReader) throws(StoreError) {
    self.id = id
    self.version = version
    title = try state.requiredString(1)
    principal = try state.requiredString(3)
    user = try state.string(4) ?? ""
    calendarHome = try state.string(5)
    addressBookHome = try state.string(6)
  }
}
