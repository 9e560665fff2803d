/// Turns the components of a file into events and reminders.
struct ICalendarReader {
  var zones: ICalendarZoneResolver
  /// `X-WR-TIMEZONE`: as the `x-wr-timezone` package does, event times in UTC are moved to this zone
  /// and floating event times are read in it.
  var calendarZone: ZoneRules?

  static func read(_ roots: [ICalendarComponent]) throws(ICalendarError) -> ICalendar {
    var result = ICalendar()
    for root in roots where root.name != "VCALENDAR" { result.skipped[root.name, default: 0] += 1 }
    for root in roots where root.name == "VCALENDAR" {
      var reader = ICalendarReader(
        zones: ICalendarZoneResolver(
          timeZones: root.components.filter { $0.name == "VTIMEZONE" }, years: Self.yearsByTimeZone(root)),
        calendarZone: nil)
      if let name = root.property("X-WR-TIMEZONE")?.value.trimmingWhitespace(), !name.isEmpty,
        case .iana(let zone)? = try? reader.zones.zone(String(name), line: root.line)
      {
        reader.calendarZone = zone
      }
      if result.name == nil, let name = root.property("X-WR-CALNAME")?.value {
        result.name = ICalendarText.unescaped(name)
      }
      if result.relationID == nil, let id = root.property("X-WR-RELCALID")?.value.trimmingWhitespace(), !id.isEmpty {
        result.relationID = ICalendarText.unescaped(String(id))
      }
      for component in root.components where !Self.kept.contains(component.name) {
        result.skipped[component.name, default: 0] += 1
      }
      try reader.readEvents(root.components.filter { $0.name == "VEVENT" }, into: &result)
      for component in root.components where component.name == "VTODO" {
        result.reminders.append(try reader.reminder(component))
        result.reminderLines.append(component.line)
      }
    }
    return result
  }

  /// The components of a `VCALENDAR` that are read.
  static let kept: Set<String> = ["VEVENT", "VTODO", "VTIMEZONE"]

  /// The years each `TZID` is used in by the file's events and to-dos.
  private static func yearsByTimeZone(_ root: ICalendarComponent) -> [String: ClosedRange<Int>] {
    var years: [String: ClosedRange<Int>] = [:]
    func visit(_ component: ICalendarComponent) {
      for line in component.properties {
        guard let tzid = line.parameter("TZID"), let year = Int(line.value.prefix(4)), (1...9999).contains(year)
        else { continue }
        let known = years[tzid]
        years[tzid] = min(known?.lowerBound ?? year, year)...max(known?.upperBound ?? year, year)
      }
      for child in component.components where child.name != "VTIMEZONE" { visit(child) }
    }
    visit(root)
    return years
  }

  // MARK: Events

  /// Reads the `VEVENT`s: masters by `UID`, their overrides attached as detached occurrences.
  private mutating func readEvents(_ components: [ICalendarComponent], into result: inout ICalendar)
    throws(ICalendarError)
  {
    var masters: [String: (event: Event, line: Int)] = [:]
    var order: [String] = []
    var seen: Set<String> = []
    var overrides: [String: [Override]] = [:]
    for component in components {
      let uid = Self.uid(of: component)
      if let recurrenceID = component.property("RECURRENCE-ID") {
        overrides[uid, default: []].append(
          Override(
            event: try event(component, uid: uid), line: component.line, recurrenceID: recurrenceID,
            time: try ICalendarTime.parse(recurrenceID),
            thisAndFuture: recurrenceID.parameter("RANGE")?.uppercased() == "THISANDFUTURE"))
        if seen.insert(uid).inserted { order.append(uid) }
        continue
      }
      let read = try event(component, uid: uid)
      if let existing = masters[uid], existing.event.sequence > read.sequence { continue }
      if seen.insert(uid).inserted { order.append(uid) }
      masters[uid] = (read, component.line)
    }
    for uid in order {
      let found = overrides[uid] ?? []
      guard let (master, line) = masters[uid] else {
        for orphan in found {
          var single = orphan.event
          single.additionalProperties.append(orphan.recurrenceID.text)
          result.events.append(try Self.validated(single, line: orphan.line))
          result.eventLines.append(orphan.line)
        }
        continue
      }
      for series in try attach(found, to: Self.validated(master, line: line)) {
        result.events.append(try Self.validated(series, line: line))
        result.eventLines.append(line)
      }
    }
  }

  /// A `RECURRENCE-ID` component of a series.
  private struct Override {
    var event: Event
    var line: Int
    var recurrenceID: ContentLine
    var time: ICalendarTime
    var thisAndFuture: Bool
  }

  /// `master` with its overrides: the single-occurrence ones detached, then each `THISANDFUTURE`
  /// one splitting the series (the continuation is a new series, returned after it).
  private mutating func attach(_ overrides: [Override], to master: Event) throws(ICalendarError) -> [Event] {
    var series = master
    var splits: [(LocalDateTime, Override)] = []
    for override in overrides {
      let key = try convert(override.time, line: override.recurrenceID.line, like: master)
      if override.thisAndFuture && series.isRecurring {
        splits.append((key, override))
        continue
      }
      if !series.isRecurring {
        if key == series.start {
          if override.event.sequence >= series.sequence {
            var replaced = override.event
            replaced.id = series.id
            series = replaced
          }
          continue
        }
        series.recurrenceDates.append(key)
      } else if !(try Self.isOccurrence(key, of: series, line: override.line)) {
        series.exceptionDates.removeAll { $0 == key }
        series.recurrenceDates.append(key)
      }
      var detached = try Self.validated(Self.single(override.event), line: override.line)
      detached.occurrenceDate = key
      detached.isDetached = true
      series.detachedOccurrences[key] = detached
    }
    var result: [Event] = []
    for (key, override) in splits.sorted(by: { $0.0 < $1.0 }) {
      guard try Self.isOccurrence(key, of: series, line: override.line) else { continue }
      do {
        if key == series.start {
          var whole = override.event
          whole.id = series.id
          whole.externalID = series.externalID
          whole.recurrenceRules = series.recurrenceRules
          whole.exceptionDates = series.exceptionDates
          whole.recurrenceDates = series.recurrenceDates
          whole.detachedOccurrences = series.detachedOccurrences
          series = try SeriesEditor.moving(whole, from: key)
          continue
        }
        var continued = override.event
        continued.externalID = series.externalID + "/" + key.iCalendarText
        continued.recurrenceRules = try SeriesEditor.continuingRules(of: series, from: key, as: series)
        continued.exceptionDates = series.exceptionDates.filter { $0 >= key }
        continued.recurrenceDates = series.recurrenceDates.filter { $0 > key }
        continued.detachedOccurrences = series.detachedOccurrences.filter { $0.key > key }
        continued = try SeriesEditor.moving(continued, from: key)
        let ended = try SeriesEditor.ending(series, before: key)
        result.append(ended)
        series = continued
      } catch {
        throw ICalendarError(line: override.line, .refused(error.description))
      }
    }
    result.append(series)
    return result
  }

  private static func isOccurrence(_ key: LocalDateTime, of series: Event, line: Int) throws(ICalendarError) -> Bool {
    do {
      return try SeriesEditor.isOccurrence(key, of: series)
    } catch {
      throw ICalendarError(line: line, .refused(error.description))
    }
  }

  /// `event` without its recurrence, to validate a detached occurrence's own fields.
  private static func single(_ event: Event) -> Event {
    var single = event
    single.recurrenceRules = []
    single.recurrenceDates = []
    single.exceptionDates = []
    single.detachedOccurrences = [:]
    return single
  }

  /// `event` as the store would save it (all-day dates normalised), or the store's refusal at `line`.
  static func validated(_ event: Event, line: Int) throws(ICalendarError) -> Event {
    var check = event
    let calendarID = check.calendarID
    check.calendarID = calendarID ?? placeholderCalendar
    do {
      var valid = try EventValidator.validated(check, allowsOverlap: true)
      valid.calendarID = calendarID
      return valid
    } catch {
      throw ICalendarError(line: line, .refused(error.description))
    }
  }

  private static let placeholderCalendar = ObjectID.random()

  /// The `UID`, or for a component without one a stable identifier made from its content, so that
  /// importing the file again finds the same item.
  static func uid(of component: ICalendarComponent) -> String {
    if let uid = component.property("UID")?.value, !uid.isEmpty { return ICalendarText.unescaped(uid) }
    var hasher = FNV1a()
    for line in component.properties where line.name != "DTSTAMP" { hasher.add(line.text) }
    return "kalends-\(hasher.hex)"
  }
}

/// A 64-bit FNV-1a hash, stable across runs (Swift's `Hasher` is seeded per process).
struct FNV1a {
  private var value: UInt64 = 0xcbf2_9ce4_8422_2325

  mutating func add(_ text: String) {
    for byte in text.utf8 {
      value ^= UInt64(byte)
      value = value &* 0x100_0000_01b3
    }
    value ^= 0x0a
    value = value &* 0x100_0000_01b3
  }

  var hex: String {
    let digits = String(value, radix: 16)
    return String(repeating: "0", count: 16 - digits.count) + digits
  }
}
