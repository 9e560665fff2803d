import ArgumentParser
import Foundation
import KalendsClient

/// An agenda: prints the week's events from the store server, and with `--watch` prints it again
/// on every change. An example of an app using `KalendsClient`, and the tests' real peer process.
@main
struct Agenda: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "kalends-agenda",
    abstract: "Print this week's events from a Kalends store server; with --watch, again on every change.",
    discussion: """
      Exits 0 after printing (or when the change stream ends), 3 when the person did not grant \
      full access to calendars, 4 when the app's session ended (its access was changed, or its \
      token revoked), 1 on any other failure.
      """)

  @Option(help: "The store server's Unix socket (default: the default store's, $XDG_RUNTIME_DIR/kalends/kalends.sock).")
  var socket: String?

  @Option(help: ArgumentHelp("The store server's TCP address, HOST:PORT (with --token-file).", valueName: "address"))
  var tcp: String?

  @Option(help: "A file holding the app's token (kalends client token create --secret-file).")
  var tokenFile: String?

  @Option(help: "Trust the certificates in this PEM file and speak TLS.") var ca: String?

  @Option(help: "A day of the week to show (YYYY-MM-DD); default today.") var week: String?

  @Option(help: "The time zone to show times in (IANA); default the system's.") var tz: String?

  @Flag(help: "Print the week again on every change, until the session ends.") var watch = false

  @Flag(help: "Also print the reminders due in the week (asks for access to reminders).") var reminders = false

  @Option(
    help: ArgumentHelp(
      "With --reminders: first complete the reminder due in the week with this title.", valueName: "title"))
  var complete: String?

  @Option(
    help: ArgumentHelp(
      "With --reminders: show this reminder list only, created when missing (as apps that keep their own list do).",
      valueName: "title"))
  var list: String?

  func validate() throws {
    if (complete != nil || list != nil) && !reminders {
      throw ValidationError("--complete and --list need --reminders")
    }
  }

  func run() async throws {
    let store = EventStore(endpoint: try endpoint())
    let zone =
      try tz.map { name in
        guard let zone = TimeZone(identifier: name) else { throw ValidationError("unknown time zone \(name)") }
        return zone
      } ?? .current
    let (start, end) = try range(in: zone)
    do {
      guard try await store.requestFullAccessToEvents() else {
        let status = try await store.authorizationStatus(for: .event)
        Self.say("no access to calendars: \(status.rawValue)")
        throw ExitCode(3)
      }
      if reminders {
        guard try await store.requestFullAccessToReminders() else {
          Self.say("no access to reminders: \(try await store.authorizationStatus(for: .reminder).rawValue)")
          throw ExitCode(3)
        }
      }
      var lists: [String]?
      if let list { lists = [try await Self.list(titled: list, in: store).id] }
      if let complete { try await self.complete(complete, store, start, end, zone) }
      try await show(store, start, end, zone, lists, header: "week of \(Self.day(start, zone))")
      guard watch else { return }
      for try await notice in store.changes() {
        let what = notice.refetchAll ? "everything" : "\(notice.changes.count) change(s)"
        try await show(store, start, end, zone, lists, header: "changed: \(what)")
      }
    } catch KalendsClientError.sessionEnded(let detail) {
      Self.say("session ended: \(detail)")
      throw ExitCode(4)
    } catch let error as KalendsClientError {
      Self.say("error: \(error)")
      throw ExitCode(1)
    }
  }

  private func show(
    _ store: EventStore, _ start: Date, _ end: Date, _ zone: TimeZone, _ lists: [String]?, header: String
  ) async throws {
    let events = try await store.events(matching: EventPredicate(start: start, end: end, timeZone: zone))
    var lines = ["== \(header) (\(events.count) events)"]
    for event in events {
      lines.append("\(event.instanceStart ?? event.start ?? "?")  \(event.title)")
    }
    if reminders {
      let due = try await store.reminders(
        matching: .incomplete(dueFrom: start, to: end, calendars: lists, timeZone: zone))
      for reminder in due { lines.append("due \(reminder.dueDate ?? "?")  ☐ \(reminder.title)") }
    }
    Self.say(lines.joined(separator: "\n"))
  }

  /// The reminder list titled `title`, created when there is none.
  private static func list(titled title: String, in store: EventStore) async throws -> KalendsClient.Calendar {
    if let list = try await store.calendars(for: .reminder).first(where: { $0.title == title }) { return list }
    let created = try await store.createCalendar(title: title, color: "#FF9500", for: .reminder)
    say("created the list \(title)")
    return created
  }

  /// Completes the reminder titled `title` due in the week: a repeating one moves to its next due
  /// date, as Reminders does.
  private func complete(_ title: String, _ store: EventStore, _ start: Date, _ end: Date, _ zone: TimeZone)
    async throws
  {
    let due = try await store.reminders(matching: .incomplete(dueFrom: start, to: end, timeZone: zone))
    guard var reminder = due.first(where: { $0.title == title }) else {
      throw ValidationError("no reminder \(title) is due in the week")
    }
    reminder.isCompleted = true
    let saved = try await store.save(reminder)
    Self.say("completed \(title)" + (saved.isCompleted ? "" : "; next due \(saved.dueDate ?? "?")"))
  }

  private func endpoint() throws -> Endpoint {
    if let socket { return .unixSocket(path: socket) }
    guard let tcp else { return .defaultStore }
    guard let colon = tcp.lastIndex(of: ":"), let port = Int(tcp[tcp.index(after: colon)...]) else {
      throw ValidationError("--tcp takes HOST:PORT")
    }
    guard let tokenFile else { throw ValidationError("--tcp needs --token-file") }
    let token = try String(contentsOfFile: tokenFile, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)
    return .tcp(
      host: String(tcp[..<colon]), port: port, token: token, tls: ca.map { .certificates(pemFile: $0) })
  }

  /// The Monday-to-Monday week around `--week` (or today) in `zone`.
  private func range(in zone: TimeZone) throws -> (Date, Date) {
    var calendar = Foundation.Calendar(identifier: .iso8601)
    calendar.timeZone = zone
    var day = Date()
    if let week {
      let parts = week.split(separator: "-").compactMap { Int($0) }
      guard parts.count == 3,
        let date = calendar.date(from: DateComponents(year: parts[0], month: parts[1], day: parts[2]))
      else { throw ValidationError("--week takes YYYY-MM-DD") }
      day = date
    }
    let start = calendar.dateInterval(of: .weekOfYear, for: day)!
    return (start.start, start.end)
  }

  private static func day(_ date: Date, _ zone: TimeZone) -> String {
    var calendar = Foundation.Calendar(identifier: .iso8601)
    calendar.timeZone = zone
    let parts = calendar.dateComponents([.year, .month, .day], from: date)
    return String(format: "%04d-%02d-%02d", parts.year ?? 0, parts.month ?? 0, parts.day ?? 0)
  }

  /// Prints `text` and flushes: the agenda's reader is often a pipe.
  private static func say(_ text: String) {
    FileHandle.standardOutput.write(Data((text + "\n").utf8))
  }
}
