/// Why the store refused a calendar, event or reminder, in the spirit of EventKit's `EKError.Code`.
/// Each case says what to do. A refused write changes nothing.
public enum CalendarError: Error, Hashable, Sendable, CustomStringConvertible {
  /// The item has no calendar.
  case noCalendar
  /// The event has no start date.
  case noStartDate
  /// The event has no end date.
  case noEndDate
  /// The event ends before it starts.
  case datesInverted
  /// The calendar does not allow changes to its items.
  case calendarReadOnly(ObjectID)
  /// The calendar does not hold events.
  case calendarDoesNotAllowEvents(ObjectID)
  /// The calendar does not hold reminders.
  case calendarDoesNotAllowReminders(ObjectID)
  /// A recurring event lasts longer than the interval between its occurrences.
  case durationGreaterThanRecurrence
  /// A recurring reminder has no due date.
  case recurringReminderRequiresDueDate
  /// A reminder's priority is outside 0…9.
  case priorityIsInvalid(Int)
  /// The span cannot be used for this change (the reason says why).
  case invalidSpan(String)
  /// A recurrence rule is invalid (the part and the reason).
  case invalidRecurrenceRule(String)
  /// The time zone is not a known IANA identifier.
  case invalidTimeZone(String)
  /// A text field is too long or holds bytes it cannot.
  case invalidText(field: String, reason: String)
  /// No calendar with this identifier exists.
  case calendarNotFound(ObjectID)
  /// No item with this identifier exists.
  case itemNotFound(ObjectID)
  /// The item was removed (at this position); it cannot be saved again.
  case itemRemoved(ObjectID, at: LogPosition)
  /// The occurrence is not one of the series'.
  case occurrenceNotFound(ObjectID, LocalDateTime)
  /// The item changed since it was fetched: fetched at `fetched`, now at `current`.
  case changedSinceFetched(ObjectID, fetched: LogPosition, current: LogPosition)
  /// A calendar's allowed entity types cannot change once saved.
  case entityTypesCannotChange(ObjectID)
  /// A reminder's start date is after its due date (RFC 5545 §3.8.2.3).
  case reminderStartsAfterDue
  /// The calendar object of this name is not as the write required (`ObjectCondition`): it
  /// exists where none was expected, is missing, or changed since it was fetched.
  case objectConditionFailed(String)
  /// The `UID` is already stored in the calendar under another name (RFC 4791's
  /// `no-uid-conflict`): the calendar object `name` holds it.
  case uidInUse(uid: String, name: String)
  /// A calendar object resource holds items of more than one `UID`, of both kinds, or none
  /// (RFC 4791 §4.1).
  case invalidCalendarObject(String)
  /// A series has more occurrences before `before` than the date-range index holds for one series
  /// (`limit` occurrences), such as a daily rule starting in year 1.
  case tooManyOccurrences(limit: Int, before: LocalDateTime)
  /// A series has `count` exception dates (EXDATE), more than `limit`: every query over it would
  /// pay for them.
  case tooManyExceptionDates(limit: Int, count: Int)
  /// The changes of a calendar after this position cannot be told: the position is beyond the
  /// log's head (another store's, or one restored from an older backup), or an item removed since
  /// had its content erased, so what it was is no longer known. Sync again from the start.
  case changesUnavailable(after: LogPosition)
  /// The position is not a save of the item: not one of its versions
  /// (``EventStore/history(of:)`` lists them).
  case versionNotFound(ObjectID, LogPosition)
  /// The content of the item's save at this position was erased: that version cannot come back.
  case versionErased(ObjectID, LogPosition)
  /// A calendar of source kind subscribed is made by subscribing to a feed
  /// (``EventStore/subscribe(to:title:color:)``), not by saving one.
  case subscribedCalendarsAreMadeBySubscribing
  /// The calendar is not a subscription: only a subscribed calendar mirrors a feed.
  case notSubscribed(ObjectID)
  /// A feed's address cannot be subscribed to (the reason says why).
  case invalidFeedURL(String)
  /// The calendar already mirrors this feed: one feed, one subscribed calendar.
  case alreadySubscribed(ObjectID)
  /// A subscribed calendar's feed was not applied, and the calendar was left as it was: the feed
  /// is not iCalendar (an HTML page), is empty where the calendar holds events, is larger than
  /// ``CalendarSubscription/maximumFeedBytes``, or holds an item the store refuses.
  case feedRefused(ObjectID, reason: String)
  /// No account has this identifier (or it was removed).
  case accountNotFound(ObjectID)
  /// An account of the same principal and user exists already: one account, one source.
  case accountExists(ObjectID)
  /// A calendar cannot move into an account, nor be made in an account without a calendar home.
  case accountCalendarsAreMadeBySyncing
  /// The calendar is not one of an account's.
  case notAnAccountCalendar(ObjectID)
  /// The birthdays calendar is added by ``EventStore/addBirthdaysCalendar(title:color:)``, and no
  /// other calendar is of its source kind.
  case birthdaysCalendarIsAdded

  /// The broad class of the failure.
  public var category: StoreError.Category {
    switch self {
    case .calendarNotFound, .itemNotFound, .occurrenceNotFound, .versionNotFound: .notFound
    case .itemRemoved, .changedSinceFetched, .objectConditionFailed, .uidInUse, .changesUnavailable, .versionErased:
      .conflict
    case .calendarReadOnly: .accessRefused
    case .notSubscribed: .notFound
    case .alreadySubscribed: .conflict
    case .accountNotFound, .notAnAccountCalendar: .notFound
    case .accountExists: .conflict
    default: .invalidInput
    }
  }

  public var description: String {
    switch self {
    case .noCalendar: "the item has no calendar — set its calendar"
    case .noStartDate: "the event has no start date — set one"
    case .noEndDate: "the event has no end date — set one"
    case .datesInverted: "the event ends before it starts — make the end the same as or later than the start"
    case .calendarReadOnly(let id): "calendar \(id) is read-only — save the item in a calendar that allows changes"
    case .birthdaysCalendarIsAdded:
      "the birthdays calendar is added as itself — use `kalends calendar create Birthdays --birthdays`"
    case .subscribedCalendarsAreMadeBySubscribing:
      "a subscribed calendar is made by subscribing to its feed — use `kalends subscribe URL`"
    case .notSubscribed(let id): "calendar \(id) is not a subscription — list them with `kalends subscription list`"
    case .alreadySubscribed(let id):
      "calendar \(id) already mirrors this feed — refresh it with `kalends subscription refresh`"
    case .invalidFeedURL(let reason): "\(reason) — give an https://, http://, webcal:// or file:/// address"
    case .feedRefused(let id, let reason):
      "the feed of calendar \(id) was not applied: \(reason); the calendar is as it was"
    case .accountNotFound(let id): "no account \(id) — list them with `kalends account list`"
    case .accountExists(let id): "that account is account \(id) already — sync it with `kalends account sync`"
    case .accountCalendarsAreMadeBySyncing:
      "a calendar is made in an account (one with a calendar home) by `kalends calendar create --account`; an existing calendar cannot move into one"
    case .notAnAccountCalendar(let id): "calendar \(id) is not an account's — list them with `kalends account show`"
    case .calendarDoesNotAllowEvents(let id): "calendar \(id) does not hold events — choose an event calendar"
    case .calendarDoesNotAllowReminders(let id):
      "calendar \(id) does not hold reminders — choose a reminders list"
    case .durationGreaterThanRecurrence:
      "the event lasts longer than the interval between its occurrences — shorten it or recur less often"
    case .recurringReminderRequiresDueDate: "a recurring reminder needs a due date — set one or remove the rule"
    case .reminderStartsAfterDue:
      "the reminder starts after it is due — make the start the same as or earlier than the due date"
    case .priorityIsInvalid(let value): "priority \(value) is outside 0…9 — use 0 (none), 1 (high) … 9 (low)"
    case .invalidSpan(let reason): "\(reason) — use the other span"
    case .invalidRecurrenceRule(let reason): "invalid recurrence rule: \(reason)"
    case .invalidTimeZone(let name): "unknown time zone \"\(name)\" — use an IANA name such as Europe/Paris"
    case .invalidText(let field, let reason): "\(field) \(reason) — shorten or fix it"
    case .calendarNotFound(let id): "no calendar \(id) — list calendars with `kalends calendar list`"
    case .itemNotFound(let id): "no item \(id) — check the identifier"
    case .itemRemoved(let id, let position):
      "item \(id) was removed at position \(position) — restore it (`restore` after `history`), or create a new item"
    case .occurrenceNotFound(let id, let date): "event \(id) has no occurrence at \(date) — check the date"
    case .changedSinceFetched(let id, let fetched, let current):
      "item \(id) changed since it was fetched (version \(fetched), now \(current)) — fetch it again and reapply, or overwrite"
    case .entityTypesCannotChange(let id):
      "calendar \(id) already holds one kind of item — create another calendar for the other kind"
    case .objectConditionFailed(let name):
      "the calendar object \(name) is not as the request expected (it exists, is missing, or changed) — fetch it again"
    case .uidInUse(let uid, let name):
      "UID \(uid) is already stored in this calendar as \(name) — change that object, or give this one another UID"
    case .invalidCalendarObject(let reason):
      "\(reason) — store one item, or one series with its overrides, per resource"
    case .tooManyOccurrences(let limit, let before):
      "the series has more than \(limit) occurrences before \(before) — start it later, or end it with COUNT or UNTIL"
    case .tooManyExceptionDates(let limit, let count):
      "the series has \(count) exception dates, more than \(limit) — split it where most are, or end it with UNTIL"
    case .changesUnavailable(let position):
      "the changes after position \(position) cannot be told (it is beyond this store's log, or what changed was erased) — sync again from the start"
    case .versionNotFound(let id, let position):
      "position \(position) is not a version of \(id) — list its versions with `history`"
    case .versionErased(let id, let position):
      "the content of \(id) at version \(position) was erased — it cannot come back; choose another version"
    }
  }
}
