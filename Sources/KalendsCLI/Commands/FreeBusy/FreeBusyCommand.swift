import ArgumentParser
import Kalends
import KalendsCommandSupport
import KalendsFormats

extension KalendsCommand {
  /// `kalends freebusy`: when the person is busy, merged, as text, JSON or a `VFREEBUSY`.
  struct FreeBusy: ParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "freebusy",
      abstract: "Show when you are busy in a window: merged busy periods, or an iCalendar VFREEBUSY.",
      discussion: """
        The window is [--from, --to), by default the seven days from the start of today. Dates and \
        times are read as you type them (today, tomorrow 10:00, +3d, 2026-12-01) in --tz, else $TZ, \
        else the settings' zone, else the system's, where the periods are also shown. An event counts as RFC 4791 §7.10 \
        counts it: cancelled and free (transparent) events and occurrences not at all, tentative ones \
        as BUSY-TENTATIVE, unavailable time as BUSY-UNAVAILABLE; overlapping and adjoining periods of \
        one kind are merged. --format ics writes a VCALENDAR with one VFREEBUSY in UTC, as a CalDAV \
        free-busy-query answers.
        """)

    enum Format: String, ConfiguredFormat, CaseIterable, ExpressibleByArgument {
      case table, json, ics
    }

    @OptionGroup var global: GlobalOptions

    @Option(
      parsing: .unconditional,
      help: ArgumentHelp("The window's start (default: the start of today).", valueName: "date"))
    var from: String?

    @Option(
      parsing: .unconditional,
      help: ArgumentHelp("The window's end, exclusive (default: seven days after the start).", valueName: "date"))
    var to: String?

    @Option(
      help: ArgumentHelp(
        "A calendar: a title or an id, or the start of either (repeatable; default: every event calendar).",
        valueName: "id"))
    var calendar: [String] = []

    @Option(help: ArgumentHelp("The IANA time zone to read and show times in.", valueName: "zone")) var tz: String?

    @Option(help: "Output format: table, json or ics (a VFREEBUSY).")
    var format: Format = .configured

    func run() throws {
      let zone = try DateArgument.zone(tz) ?? LocalZone.current
      let start = try DateArgument(from ?? "today", option: "--from", zone: zone).instant(in: zone)
      let end: Int64
      if let to {
        end = try DateArgument(to, option: "--to", zone: zone).instant(in: zone)
      } else {
        // Seven days of the wall clock after the start: a week across a change of offset is still a week.
        guard let local = zone.localDateTime(atUTC: start),
          let later = LocalDateTime(wallClockSeconds: local.wallClockSeconds + 7 * 86_400)
        else { throw CLIError.invalidInput("--from: the week after it falls outside the years 1…9999") }
        end = zone.resolve(later)
      }
      guard start < end else { throw CLIError.invalidInput("--to must be after --from") }
      let store = try global.openEventStore(readOnly: true)
      let ids = try store.existingCalendarIDs(named: calendar, option: "--calendar")
      let periods = try store.busyPeriods(inCalendars: ids, from: start, to: end)
      func shown(_ utc: Int64) -> String {
        zone.localDateTime(atUTC: utc).map { RFC3339Time.text(for: $0, in: zone) } ?? String(utc)
      }
      switch format {
      case .ics:
        print(ICalendar.freeBusy(periods, from: start, to: end), terminator: "")
      case .json:
        let fields: [(String, JSONValue)] = [
          ("from", .string(shown(start))), ("to", .string(shown(end))),
          (
            "busy",
            .array(
              periods.map { period in
                .object([
                  ("start", .string(shown(period.start))), ("end", .string(shown(period.end))),
                  ("kind", .string(period.kind.rawValue)),
                ])
              })
          ),
        ]
        print(JSONValue.object(fields).rendered())
      case .table:
        guard !periods.isEmpty else {
          print("free from \(shown(start)) to \(shown(end))")
          return
        }
        let rows = periods.map { [shown($0.start), shown($0.end), $0.kind.rawValue] }
        print(TextTable.columns([["START", "END", "KIND"]] + rows))
      }
    }
  }
}
