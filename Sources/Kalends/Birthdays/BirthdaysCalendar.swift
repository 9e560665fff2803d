/// The birthdays calendar (EventKit's calendar of type birthday): one read-only calendar whose
/// events are not stored but derived, at each read, from the contacts' birthdays and anniversaries
/// — a yearly all-day series for each, named by the contact. It exists once the person adds it
/// (``EventStore/addBirthdaysCalendar(title:color:)``) and shows what the contacts say at that
/// moment: a contact changed or removed changes it with no record of its own.
///
/// Its events have identifiers derived from their contact's (``eventID(of:_:)``), so that one
/// names the same birthday across reads, and ``Event/birthdayContactID`` names the contact, as
/// EventKit's `birthdayContactIdentifier` does. A session sees a birthday only when it sees the
/// calendar *and* the contact: with limited access to contacts only its chosen contacts', without
/// access to contacts none — calendar access is no way into the address book.
///
/// A birthday on February 29 falls on February 28 in other years (its series' rule says
/// `BYMONTHDAY=-1` of February); a birthday whose year is known starts in that year, one without a
/// year in 1604, as Contacts writes a date without a year.
public enum BirthdaysCalendar {
  /// The calendar's identifier, the same in every store.
  public static let id = ObjectID("00000000-0000-4000-8000-0000000000b1")!

  /// The source the calendar belongs to (EventKit lists it under "Other").
  public static let source = CalendarSource(
    id: ObjectID("00000000-0000-4000-8000-000000000002")!, title: "Other", kind: .birthdays)

  /// The year a date without a year starts in (a leap year, as Contacts uses).
  static let yearlessStart = 1604

  /// The identifier of the event of `kind` of the contact `contact`: the contact's identifier with
  /// a mask of that kind over its first four bytes (the UUID's version and variant stay as they are).
  public static func eventID(of contact: ObjectID, _ kind: BirthdayKind) -> ObjectID {
    masked(contact, kind)
  }

  /// The contact and kind an event identifier of this calendar names, for each kind it could be
  /// (the mask is its own inverse).
  static func candidates(of eventID: ObjectID) -> [(contact: ObjectID, kind: BirthdayKind)] {
    BirthdayKind.allCases.map { (masked(eventID, $0), $0) }
  }

  /// `id` with the mask of `kind` over its first four bytes.
  private static func masked(_ id: ObjectID, _ kind: BirthdayKind) -> ObjectID {
    let mask: [UInt8] = kind == .birthday ? [0xB1, 0x27, 0x4D, 0x19] : [0xA2, 0x6C, 0x13, 0x58]
    var bytes = id.bytes
    for (index, byte) in mask.enumerated() { bytes[index] ^= byte }
    return ObjectID(bytes: bytes)!
  }

  /// The day `date` falls on in `year`: February 29 on February 28 outside leap years; `nil` before
  /// its year.
  static func day(of date: ContactDate, in year: Int) -> LocalDateTime? {
    if let born = date.year, year < born { return nil }
    return LocalDateTime(year: year, month: date.month, day: date.day)
      ?? LocalDateTime(year: year, month: date.month, day: date.day - 1)
  }

  /// The series of `kind` for `contact`, whose date it is: a yearly all-day event titled
  /// "NAME's Birthday" (or "Anniversary"), starting on the date's first day.
  static func series(of contact: Contact, _ kind: BirthdayKind, _ date: ContactDate) throws -> Event {
    let first = day(of: date, in: date.year ?? yearlessStart)!
    let name = contact.displayName.isEmpty ? "(no name)" : contact.displayName
    var event = Event(
      id: eventID(of: contact.id, kind), externalID: "\(contact.externalID)-\(kind)", calendarID: id,
      title: "\(name)'s \(kind == .birthday ? "Birthday" : "Anniversary")", start: first,
      end: LocalDateTime(unchecked: first.wallClockSeconds + 86_400), timeZone: nil, isAllDay: true)
    let leapDay = date.month == 2 && date.day == 29
    event.recurrenceRules = [
      try RecurrenceRule(frequency: .yearly, byMonth: leapDay ? [2] : [], byMonthDay: leapDay ? [-1] : [])
    ]
    event.availability = .free
    event.birthdayContactID = contact.id
    event.version = contact.version
    event.creationDate = contact.creationDate
    event.lastModifiedDate = contact.lastModifiedDate
    return event
  }
}
