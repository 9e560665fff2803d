extension EventStore {
  /// The words `text` is indexed and searched by: folded as contact names are (case, diacritics,
  /// width) and cut as the index cuts them.
  package static func searchWords(_ text: String) -> [String] { SearchWords.of(text) }

  /// The live events whose title, location or notes — or an occurrence's changed on its own — hold
  /// a word beginning with each word of `text` (case, diacritics and width ignored: "dent" finds
  /// "Dentist", "zurich" finds "Zürich"), in the calendars `calendarIDs` (every event calendar when
  /// empty) this session may see, each series once, by start then identifier. Answered from the
  /// search index (`search.words`: the range of keys of the word typed that begins the fewest
  /// words, the others checked against what each item found says), never by reading every event. A text without words finds nothing. An app's call is checked and recorded as a read of
  /// its calendars; its chosen calendars bound it; a write-only app finds nothing, and its attempt
  /// is recorded.
  public func searchEvents(_ text: String, inCalendars calendarIDs: [ObjectID] = []) throws(StoreError) -> [Event] {
    let prefixes = SearchWords.of(text)
    guard !prefixes.isEmpty else { return [] }
    let search = try store.projection(ItemSearchProjection.self)
    return try readItems(.calendars, "search events", hidden: []) { txn, objects, uses in
      let visible = Set(try visibleCalendars(for: .events, objects, in: txn).map(\.id))
      let wanted = calendarIDs.isEmpty ? visible : visible.intersection(calendarIDs)
      var events: [Event] = []
      for id in try search.items(.event, matching: prefixes, in: txn) {
        guard let stored = try objects.state(.event, id, in: txn), stored.isLive, wanted.contains(stored.calendarID)
        else { continue }
        uses.touch(stored.calendarID)
        events.append(try Self.decodeEvent(id, stored))
      }
      return events.sorted { ($0.start ?? .min, $0.id) < ($1.start ?? .min, $1.id) }
    }
  }

  /// The live reminders whose title or notes hold a word beginning with each word of `text`, as
  /// ``searchEvents(_:inCalendars:)`` finds events, by due date then title; an app's call is a read
  /// of its reminders.
  public func searchReminders(_ text: String, inCalendars calendarIDs: [ObjectID] = []) throws(StoreError)
    -> [Reminder]
  {
    let prefixes = SearchWords.of(text)
    guard !prefixes.isEmpty else { return [] }
    let search = try store.projection(ItemSearchProjection.self)
    return try readItems(.reminders, "search reminders", hidden: []) { txn, objects, uses in
      let visible = Set(try visibleCalendars(for: .reminders, objects, in: txn).map(\.id))
      let wanted = calendarIDs.isEmpty ? visible : visible.intersection(calendarIDs)
      var reminders: [Reminder] = []
      for id in try search.items(.reminder, matching: prefixes, in: txn) {
        guard let stored = try objects.state(.reminder, id, in: txn), stored.isLive, wanted.contains(stored.calendarID)
        else { continue }
        uses.touch(stored.calendarID)
        reminders.append(
          try ModelCodec.decodeReminder(
            id: id, calendarID: stored.calendarID, version: stored.version, modified: stored.modified, stored.state))
      }
      return reminders.sorted { ($0.dueDate ?? .max, $0.title, $0.id) < ($1.dueDate ?? .max, $1.title, $1.id) }
    }
  }
}
