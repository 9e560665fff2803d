import ArgumentParser
import Kalends
import KalendsCommandSupport
import KalendsFormats

extension KalendsCommand {
  /// `kalends alarms`: the alarms that fire in a window, as `kalends serve` shows them.
  struct Alarms: ParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "alarms",
      abstract: "List the alarms of events and reminders that fire in a window, by time.",
      discussion: """
        The window is (--from, --to], by default the next day. Each alarm of each occurrence of an \
        event (not of cancelled ones) and of each incomplete reminder due: what `kalends serve` shows \
        when it fires. Times are read as typed and shown in --tz, else $TZ, else the settings' zone, else the system's, \
        where floating and all-day items are placed; an all-day item's alarm is relative to the start \
        of its day. Alarms more than four weeks before or a day after their item are not looked for.
        """)

    @OptionGroup var global: GlobalOptions

    @Option(
      parsing: .unconditional,
      help: ArgumentHelp("The window's start, exclusive (default: now).", valueName: "date"))
    var from = "now"

    @Option(
      parsing: .unconditional,
      help: ArgumentHelp("The window's end, inclusive (default: the same time a day after --from).", valueName: "date"))
    var to: String?

    @Option(help: ArgumentHelp("The IANA time zone to read and show times in.", valueName: "zone")) var tz: String?

    @Option(help: "Output format: table or json (an array).") var format: ObjectFormat = .configured

    func run() throws {
      let zone = try DateArgument.zone(tz) ?? LocalZone.current
      let (start, end) = try DateArgument.window(from: from, to: to, defaultDays: 1, zone: zone)
      let store = try global.openEventStore(readOnly: true)
      let alarms = try store.alarms(firingAfter: start, through: end, viewerZone: zone)
      func time(_ utc: Int64) -> String {
        zone.localDateTime(atUTC: utc).map { RFC3339Time.text(for: $0, in: zone) } ?? "\(utc)"
      }
      format.write(
        alarms,
        json: { alarm in
          var fields: [(String, JSONValue)] = [("fireTime", .string(time(alarm.fireTime)))]
          switch alarm.item {
          case .event(let id, let occurrence):
            fields += [("kind", .string("event")), ("id", .string(id.description))]
            fields.append(("occurrenceDate", occurrence.map { .string(RFC3339Time.text(for: $0, in: nil)) } ?? .null))
          case .reminder(let id): fields += [("kind", .string("reminder")), ("id", .string(id.description))]
          }
          return fields + [
            ("offset", .number(Double(alarm.offset))), ("title", .string(alarm.title)),
            ("start", .string(time(alarm.start))), ("calendarId", .string(alarm.calendarID.description)),
          ]
        },
        columns: [
          ("FIRES", { time($0.fireTime) }), ("OFFSET", { AlarmArgument.text(Alarm(relativeOffset: $0.offset)) }),
          ("TITLE", { TerminalText.escaped($0.title) }), ("STARTS", { time($0.start) }),
          (
            "ID",
            {
              switch $0.item {
              case .event(let id, _), .reminder(let id): id.description
              }
            }
          ),
        ])
    }
  }
}
