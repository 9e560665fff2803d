import ArgumentParser
import Kalends
import KalendsCommandSupport
import KalendsFormats

extension KalendsCommand.Audit {
  /// `kalends audit history`: the timeline of privacy facts.
  struct History: ParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "history",
      abstract: "The timeline of registrations, requests, prompts, decisions and refusals.",
      discussion: """
        A table says each fact in words, the app by its registered name: `what` is the sentence, \
        `caller` says whether the store server identified the app (`identified`) or the record was \
        written in the app's own process (`declared`). --format csv and json hold every field: the \
        codes (kind, status, reason), the client's id and the server's evidence. Refusals counted in \
        the last minutes and not yet in the log close the timeline with `pending`.
        """)

    @OptionGroup var global: GlobalOptions

    @Option(help: "Only this app, by its id or its name.") var client: String?

    @Option(help: "Only this service: calendars, reminders or contacts.") var service: ServiceArgument?

    @OptionGroup var window: AuditWindow

    @Option(help: "Output format: table, json or csv.") var format: ReportFormat = .configured

    @Flag(help: "Show the table's times in UTC rather than in $TZ (the JSON's are always UTC).") var utc = false

    func run() throws {
      let store = try global.openStore(readOnly: true, for: "read the audit")
      let (since, until) = try window.bounds
      let client = try self.client.map { try EventStore(store: store).clientNamed($0, option: "--client") }
      let timeline = try AuditTimeline(
        PrivacyAudit(store: store), client: client, service: service?.service, since: since, until: until)
      let names = try AuditNames(EventStore(store: store))
      format.write(
        timeline.rows(names: names, table: format != .json, zone: utc ? nil : LocalZone.current),
        columns: format == .table
          ? ["position", "time", "app", "what", "caller"] : AuditTimeline.columns)
    }
  }
}

/// Instants given to audit options: a date (midnight UTC), a wall-clock time (UTC) or an instant,
/// with optional fractional seconds as the log prints them (`2026-11-23T02:42:43.908232Z`); a
/// span back from now (`30d`, `12h`, `2w`, `90m`), or a spoken time (`today`, `-7d`).
enum AuditTime {
  /// The instant of `--at`: `nil` (the head of the log) when absent or `now`.
  static func instant(_ text: String?) throws(CLIError) -> Timestamp? {
    guard let text, text != "now" else { return nil }
    return try parse(text, option: "--at")
  }

  static func parse(_ text: String, option: String) throws(CLIError) -> Timestamp {
    // `30d` in an audit looks back: the last thirty days.
    if let unit = text.last, "mhdw".contains(unit), text.count > 1,
      text.dropLast().allSatisfy({ $0.isASCII && $0.isNumber })
    {
      return try parse("-" + text, option: option)
    }
    var whole = text
    var micros: Int64 = 0
    let characters = Array(text)
    if characters.count > 20, characters[19] == "." {
      let digits = characters[20...].prefix { $0.isASCII && $0.isNumber }
      guard !digits.isEmpty, digits.count <= 6 else {
        throw .invalidInput("\(option): \"\(text)\" has more than microsecond precision")
      }
      micros = Int64(String(digits) + String(repeating: "0", count: 6 - digits.count))!
      whole = String(characters[..<19]) + String(characters[(20 + digits.count)...])
    }
    let argument = try DateArgument(whole, option: option)
    let seconds: Int64
    switch argument.value {
    case .instant(let utc): seconds = utc
    case .date(let local), .wallClock(let local): seconds = local.wallClockSeconds
    }
    return Timestamp(rawValue: seconds * 1_000_000 + micros)
  }
}
