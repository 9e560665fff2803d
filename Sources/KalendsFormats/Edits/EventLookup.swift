package import Kalends

/// Finds what `event show|update|remove` address: an event, a series, or one occurrence of it.
package enum EventLookup {
  /// The event `id` (for a recurring one, the series itself), or with `occurrence` the occurrence
  /// of the series at that original start. A date alone names the one occurrence starting that day;
  /// an instant is read on the series' wall clock.
  package static func fetch(
    _ id: ObjectID, occurrence text: String?, in store: EventStore, spoken: Bool = true
  ) throws -> Event {
    let argument = try text.map { text throws(RequestError) in
      try DateArgument(text, option: "--occurrence", spoken: spoken)
    }
    guard let series = try store.event(withID: id) else {
      // EventKit gives a write-only app no events; the library recorded the attempt. Say why.
      if case .client(let client) = store.actor, try store.authorizationStatus(for: .calendars) == .writeOnly {
        throw StoreError.access(
          .accessDenied(client: client, service: .calendars, status: .writeOnly, operation: "read events"))
      }
      throw StoreError.calendar(.itemNotFound(id))
    }
    guard let argument else { return series }
    guard series.isRecurring else {
      throw RequestError.invalidInput("--occurrence: event \(id) does not repeat — leave --occurrence out")
    }
    let date = try originalStart(argument, of: series)
    guard let occurrence = try store.event(withID: id, occurrence: date) else {
      throw StoreError.calendar(.occurrenceNotFound(id, date))
    }
    return occurrence
  }

  private static func originalStart(_ argument: DateArgument, of series: Event) throws -> LocalDateTime {
    let zone = try DateArgument.zone(series.timeZone)
    switch argument.value {
    case .date(let day) where !series.isAllDay:
      return try onlyStart(on: day, of: series)
    case .instant where zone == nil:
      throw RequestError.invalidInput(
        "--occurrence: event \(series.id) has no time zone — give the occurrence's "
          + (series.isAllDay ? "date" : "date or wall-clock time") + " without an offset")
    default:
      return try argument.wallClock(in: zone)
    }
  }

  /// The original start of the occurrence of `series` on the date `day`.
  private static func onlyStart(on day: LocalDateTime, of series: Event) throws -> LocalDateTime {
    let dayText = RFC3339Time.dateText(for: day)
    guard let next = LocalDateTime(wallClockSeconds: day.wallClockSeconds + 86_400) else {
      throw RequestError.invalidInput("--occurrence: \(dayText) is the last day there is")
    }
    let set = try series.recurrenceSet()
    let zone = set.zone ?? .utc
    let starts = set.occurrences(from: zone.resolve(day), to: zone.resolve(next)).map(\.local)
      .filter { $0 >= day && $0 < next }
    guard let first = starts.first else {
      throw RequestError(
        message: "event \(series.id) has no occurrence on \(dayText) — check the date", category: .notFound)
    }
    guard starts.count == 1 else {
      throw RequestError.invalidInput(
        "--occurrence: event \(series.id) has \(starts.count) occurrences on \(dayText) — give the time too, "
          + "such as \(DateArgument.text(first, isDate: false, zone: series.timeZone))")
    }
    return first
  }
}
