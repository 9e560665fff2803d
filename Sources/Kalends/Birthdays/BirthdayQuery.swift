internal import LMDB

/// The occurrences of the birthdays calendar overlapping a window, as index entries, for the
/// contacts a session may see: read from the contacts book's index of dates, a day of the window
/// at a time (the whole index for a window of a year or more), and placed as all-day events in the
/// viewer's zone.
struct BirthdayQuery {
  /// The window, UTC seconds since 1970, `[from, to)`.
  let from: Int64
  let to: Int64
  /// Where the all-day occurrences are placed.
  let zone: ZoneRules

  /// The occurrences of the birthdays and anniversaries of the contacts `sees` admits, sorted as
  /// ``EventInstance/precedes(_:_:)`` sorts.
  func instances(
    _ book: ContactsProjection, sees: (ObjectID) throws -> Bool, in txn: borrowing ReadTransaction
  ) throws -> [EventInstance] {
    guard from < to, let first = zone.localDateTime(atUTC: from)?.dayNumber,
      let last = zone.localDateTime(atUTC: to - 1)?.dayNumber
    else { return [] }
    let entries: [BirthdayEntry]
    if last - first >= 366 {
      entries = try book.dates(onMonth: nil, day: nil, in: txn)
    } else {
      var found: [BirthdayEntry] = []
      for dayNumber in first...last {
        let date = CivilDate.fromDays(dayNumber)
        found += try book.dates(onMonth: Int(date.month), day: Int(date.day), in: txn)
        // February 29 falls on the 28th outside leap years.
        if date.month == 2, date.day == 28, CivilDate.daysInMonth(year: date.year, month: 2) == 28 {
          found += try book.dates(onMonth: 2, day: 29, in: txn)
        }
      }
      entries = found
    }
    let years = Int(CivilDate.fromDays(first).year)...Int(CivilDate.fromDays(last).year)
    var out: [EventInstance] = []
    var seen: [ObjectID: Bool] = [:]
    for entry in entries {
      let visible: Bool
      if let known = seen[entry.contact] {
        visible = known
      } else {
        visible = try sees(entry.contact)
        seen[entry.contact] = visible
      }
      guard visible else { continue }
      for year in years {
        guard let day = BirthdaysCalendar.day(of: entry.date, in: year), (first...last).contains(day.dayNumber)
        else { continue }
        let start = zone.resolve(day)
        let end = zone.resolve(LocalDateTime(unchecked: day.wallClockSeconds + 86_400))
        guard start < to, end > from else { continue }
        out.append(
          EventInstance(
            id: BirthdaysCalendar.eventID(of: entry.contact, entry.kind), calendarID: BirthdaysCalendar.id,
            occurrenceDate: day, start: start, end: end, isRecurring: true, isDetached: false, isAllDay: true))
      }
    }
    return out.sorted(by: EventInstance.precedes)
  }
}
