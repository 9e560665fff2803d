import Foundation
import Kalends
import KalendsSynthetic

/// One thread's share of the torture writer: a seeded mix of commands through the public API, each
/// announced before it runs (`begin TOKEN KIND RECORDS MATCH`) and acknowledged once it returned
/// (`ack TOKEN FIRST LAST`, the positions it appended, `0 0` when the API does not say).
///
/// Every record a command appends carries the text MATCH (the command's own token, or for a
/// privacy decision the token of the client it concerns), so a checker can attribute every record
/// of the log to a command and tell whether a command landed whole, not at all, or in part.
final class TortureWorkload {
  /// Thrown when the store broke a promise the workload can see for itself.
  struct Violation: Error, CustomStringConvertible {
    let description: String
  }

  private let events: EventStore
  private let output: TortureOutput
  private let prefix: String
  private let counter: ObjectID?
  private var random: SeededGenerator
  private var sequence = 0
  private var calendar: ObjectID?
  private var saved: [Event] = []
  private var contacts: [Contact] = []
  private var unasked: [String] = []
  private var decided: [(client: String, status: AuthorizationStatus)] = []

  init(events: EventStore, output: TortureOutput, writer: Int, thread: Int, seed: UInt64, counter: ObjectID?) {
    self.events = events
    self.output = output
    self.prefix = "~w\(writer)t\(thread)c"
    self.counter = counter
    self.random = SeededGenerator(seed: seed &* 0x2545_F491_4F6C_DD1D &+ UInt64(thread))
  }

  /// Runs commands until `deadline` or until `limit` commands were acknowledged.
  func run(until deadline: Date?, limit: Int?) throws {
    var done = 0
    while limit.map({ done < $0 }) ?? true, deadline.map({ Date() < $0 }) ?? true {
      try step()
      done += 1
    }
  }

  private func nextToken() -> String {
    sequence += 1
    return "\(prefix)\(sequence)~"
  }

  /// Announces a command, runs it, and acknowledges it with the positions it returned.
  private func command(
    _ kind: String, records: Int, match: String? = nil, token: String,
    _ body: () throws -> ClosedRange<UInt64>?
  ) throws {
    output.emit("begin \(token) \(kind) \(records) \(match ?? token)")
    let positions = try body()
    if let positions, positions.count != records {
      throw Violation(
        description: "\(token) \(kind) appended \(positions.count) records at \(positions), expected \(records)")
    }
    output.emit("ack \(token) \(positions?.lowerBound ?? 0) \(positions?.upperBound ?? 0)")
  }

  private func step() throws {
    guard let calendar else {
      let token = nextToken()
      try command("calendar", records: 1, token: token) {
        let saved = try events.save(EventCalendar(title: token))
        self.calendar = saved.id
        return saved.version.rawValue...saved.version.rawValue
      }
      return
    }
    switch Int.random(in: 0..<100, using: &random) {
    case 0..<22: try saveEvents(in: calendar, count: 1)
    case 22..<34: try saveEvents(in: calendar, count: Int.random(in: 2...6, using: &random))
    case 34..<38: try annotate()
    case 38..<40: try saveContact()
    case 40..<42: try importContacts()
    case 42..<52: try importFile(into: calendar)
    case 52..<60: try updateEvent()
    case 60..<67: try register()
    case 67..<74: try requestAccess()
    case 74..<80: try changeSettings()
    case 80..<90 where counter != nil: try incrementCounter()
    default: try readBack()
    }
  }

  // MARK: Commands

  private static let rules = [
    "FREQ=WEEKLY;COUNT=10", "FREQ=DAILY;INTERVAL=2;COUNT=30", "FREQ=MONTHLY;BYDAY=2TU", "FREQ=YEARLY",
    "FREQ=WEEKLY;BYDAY=MO,WE,FR;UNTIL=20271231T000000Z", "FREQ=MONTHLY;BYMONTHDAY=-1;COUNT=24",
  ]

  private func randomEvent(in calendar: ObjectID, title: String) throws -> Event {
    let day = Int.random(in: 1...28, using: &random)
    let month = Int.random(in: 1...12, using: &random)
    let hour = Int.random(in: 6...20, using: &random)
    let start = LocalDateTime(year: 2026, month: month, day: day, hour: hour)
    let end = LocalDateTime(year: 2026, month: month, day: day, hour: hour + 1)
    let zone: String? = Bool.random(using: &random) ? "Europe/Berlin" : nil
    var event = Event(calendarID: calendar, title: title, start: start, end: end, timeZone: zone)
    if Int.random(in: 0..<10, using: &random) < 4 {
      event.recurrenceRules = [try RecurrenceRule(parsing: Self.rules.randomElement(using: &random)!)]
    }
    return event
  }

  private func saveEvents(in calendar: ObjectID, count: Int) throws {
    let token = nextToken()
    let drafts = try (0..<count).map { _ in try randomEvent(in: calendar, title: token) }
    try command(count == 1 ? "event" : "batch", records: count, token: token) {
      let stored = try events.save(drafts, span: .thisEvent)
      saved += stored
      return Self.range(stored.map(\.version))
    }
  }

  private func annotate() throws {
    let token = nextToken()
    let count = Int.random(in: 1...5, using: &random)
    try command("notes", records: count, token: token) {
      let headers = try events.store.append(contentsOf: (1...count).map { .annotation("\(token) \($0)/\(count)") })
      return Self.range(headers.map(\.position))
    }
  }

  private func importFile(into calendar: ObjectID) throws {
    let token = nextToken()
    let count = Int.random(in: 1...4, using: &random)
    var lines = ["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//Kalends//torture//EN"]
    for index in 0..<count {
      let day = String(format: "%02d", Int.random(in: 1...28, using: &random))
      lines += [
        "BEGIN:VEVENT", "UID:\(token)\(index)@torture", "DTSTAMP:20260101T000000Z",
        "DTSTART;TZID=Europe/Berlin:202607\(day)T100000", "DTEND;TZID=Europe/Berlin:202607\(day)T110000",
        "SUMMARY:\(token)",
      ]
      if index == 0 { lines.append("RRULE:FREQ=WEEKLY;COUNT=6") }
      lines.append("END:VEVENT")
    }
    lines.append("END:VCALENDAR")
    let bytes = Array(lines.joined(separator: "\r\n").utf8)
    try command("import", records: count, token: token) {
      let result = try events.importICalendar(bytes, into: .calendar(calendar))
      guard result.created == count, let last = result.lastPosition else {
        throw Violation(description: "\(token) import created \(result.created) of \(count) events")
      }
      return (last.rawValue - UInt64(count) + 1)...last.rawValue
    }
  }

  private func updateEvent() throws {
    guard !saved.isEmpty else { return try readBack() }
    let index = Int.random(in: 0..<saved.count, using: &random)
    let token = nextToken()
    var event = saved[index]
    event.title = token
    event.start = event.start.flatMap { LocalDateTime(wallClockSeconds: $0.wallClockSeconds + 3_600) }
    event.end = event.end.flatMap { LocalDateTime(wallClockSeconds: $0.wallClockSeconds + 3_600) }
    try command("update", records: 1, token: token) {
      let stored = try events.save(event, span: .futureEvents)
      saved[index] = stored
      return stored.version.rawValue...stored.version.rawValue
    }
  }

  /// Saves a new contact named by the token, or changes one this thread saved before.
  private func saveContact() throws {
    let token = nextToken()
    var contact: Contact
    var index: Int?
    if !contacts.isEmpty, Bool.random(using: &random) {
      index = Int.random(in: 0..<contacts.count, using: &random)
      contact = contacts[index!]
      // Renamed whole: a record carries the token of its command only.
      contact.givenName = token
    } else {
      contact = Contact(givenName: token, familyName: "Torture")
      contact.phoneNumbers = [LabeledValue(label: "mobile", value: "+1 555 \(sequence)")]
    }
    try command("contact", records: 1, token: token) {
      let stored = try events.contactStore.save(contact)
      if let index { contacts[index] = stored } else { contacts.append(stored) }
      return stored.version.rawValue...stored.version.rawValue
    }
  }

  /// Imports a vCard file of 1–4 new cards named by the token: one transaction, all or nothing.
  private func importContacts() throws {
    let token = nextToken()
    let count = Int.random(in: 1...4, using: &random)
    var lines: [String] = []
    for index in 0..<count {
      lines += [
        "BEGIN:VCARD", "VERSION:\(index.isMultiple(of: 2) ? "3.0" : "4.0")", "UID:\(token)\(index)@torture",
        "N:Torture;\(token);;;", "FN:\(token) Torture", "EMAIL;TYPE=WORK:c\(index)@torture.example", "END:VCARD",
      ]
    }
    let bytes = Array((lines.joined(separator: "\r\n") + "\r\n").utf8)
    try command("contacts", records: count, token: token) {
      let result = try events.contactStore.importVCards(bytes)
      guard result.contactsCreated == count else {
        throw Violation(description: "\(token) import created \(result.contactsCreated) of \(count) contacts")
      }
      return nil
    }
  }

  private func register() throws {
    let token = nextToken()
    let client = Client(
      id: TortureJournal.clientID(token), name: "torture",
      usageDescriptions: [.calendarsFull: "torture", .calendarsWriteOnly: "torture", .remindersFull: "torture"])
    try command("register", records: 1, token: token) {
      let registered = try events.register(client)
      unasked.append(client.id)
      return registered.version.rawValue...registered.version.rawValue
    }
  }

  private func requestAccess() throws {
    guard let client = unasked.popLast() else { return try register() }
    let answer = ConsentAnswer.allCases.randomElement(using: &random)!
    let writeOnly = Bool.random(using: &random)
    try command("request", records: 2, match: TortureJournal.token(ofClient: client), token: nextToken()) {
      let session = try events.session(for: client)
      let prompter = FixedAnswerPrompter(answer)
      let status =
        writeOnly
        ? try session.requestWriteOnlyAccess(prompter: prompter)
        : try session.requestFullAccess(to: .calendars, prompter: prompter)
      decided.append((client, status))
      return nil
    }
  }

  private func changeSettings() throws {
    guard !decided.isEmpty else { return try requestAccess() }
    let index = Int.random(in: 0..<decided.count, using: &random)
    let (client, current) = decided[index]
    let next = ([.fullAccess, .writeOnly, .denied] as [AuthorizationStatus]).filter { $0 != current }
      .randomElement(using: &random)!
    try command("settings", records: 1, match: TortureJournal.token(ofClient: client), token: nextToken()) {
      decided[index].status = try events.privacySettings().setAccess(next, for: client, service: .calendars)
      return nil
    }
  }

  /// Adds one to the shared counter event (`counter N` in its title) with optimistic concurrency:
  /// a conflict the API reports is retried; one it does not report would lose an increment.
  private func incrementCounter() throws {
    guard let counter else { return }
    let token = nextToken()
    try command("counter", records: 1, token: token) {
      while true {
        guard var event = try events.event(withID: counter) else {
          throw Violation(description: "the counter event \(counter) is gone")
        }
        let value = Int(event.title.dropFirst("counter ".count)) ?? -1
        event.title = "counter \(value + 1)"
        event.notes = token
        do {
          let stored = try events.save(event, span: .futureEvents)
          return stored.version.rawValue...stored.version.rawValue
        } catch let error as StoreError {
          guard case .calendar(.changedSinceFetched) = error else { throw error }
          output.emit("conflict \(token)")
        }
      }
    }
  }

  /// Reads one of this thread's events back through the range index, and one of its contacts
  /// through the search index: they must be there.
  private func readBack() throws {
    if let contact = contacts.randomElement(using: &random), let name = contact.givenName {
      let found = try events.contactStore.contacts(matching: .name(name)).contains { $0.id == contact.id }
      if !found { throw Violation(description: "contact \(contact.id) (\(name)) is missing from the search index") }
    }
    guard let event = saved.randomElement(using: &random), let start = event.start else { return }
    let predicate = EventPredicate(
      start: start.wallClockSeconds - 86_400, end: start.wallClockSeconds + 86_400, calendars: [event.calendarID!])
    let found = try events.instances(matching: predicate).contains { $0.id == event.id }
    if !found { throw Violation(description: "event \(event.id) (\(event.title)) is missing from the range index") }
  }

  private static func range(_ positions: [LogPosition]) -> ClosedRange<UInt64>? {
    guard let low = positions.min(), let high = positions.max() else { return nil }
    return low.rawValue...high.rawValue
  }
}
