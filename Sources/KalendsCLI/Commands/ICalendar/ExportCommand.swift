import ArgumentParser
import Foundation
import Kalends
import KalendsCommandSupport
import KalendsFormats

extension KalendsCommand {
  /// `kalends export`: calendars as an iCalendar file.
  struct Export: ParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "export",
      abstract: "Export calendars as an iCalendar (.ics) file (RFC 5545).",
      discussion: """
        Writes every event (each series once, its detached occurrences as RECURRENCE-ID overrides) \
        and reminder of the calendars given (default: all), with a VTIMEZONE for each zone used. \
        With --from and --to, only the series with an occurrence overlapping that window and the \
        reminders due in it; dates and times are read as typed in --tz, else $TZ, else the settings' zone, else the system's.
        """)

    @OptionGroup var global: GlobalOptions

    @Option(
      help: ArgumentHelp(
        "A calendar: a title or an id, or the start of either (repeatable; default: every calendar).", valueName: "id"))
    var calendar: [String] = []

    @Option(
      parsing: .unconditional,
      help: ArgumentHelp("The window's start: a date, a wall-clock time or an instant.", valueName: "date"))
    var from: String?

    @Option(
      parsing: .unconditional, help: ArgumentHelp("The window's end (exclusive).", valueName: "date"))
    var to: String?

    @Option(
      help: ArgumentHelp(
        "The IANA zone of --from and --to (default: $TZ's, else the settings', else the system's).", valueName: "zone"))
    var tz: String?

    @Option(name: .shortAndLong, help: ArgumentHelp("Where to write; - is standard output.", valueName: "file"))
    var output = "-"

    func validate() throws {
      if (from == nil) != (to == nil) { throw ValidationError("give both --from and --to, or neither") }
    }

    func run() throws {
      let zone = try DateArgument.zone(tz) ?? LocalZone.current
      var window: (Int64, Int64)?
      if let from, let to {
        let start = try DateArgument(from, option: "--from", zone: zone).instant(in: zone)
        let end = try DateArgument(to, option: "--to", zone: zone).instant(in: zone)
        guard start < end else { throw CLIError.invalidInput("--to must be after --from") }
        window = (start, end)
      }
      let store = try global.openEventStore(readOnly: true)
      let ids = try store.existingCalendarIDs(named: calendar, option: "--calendar")
      let file = try store.exportICalendar(calendars: ids, from: window?.0, to: window?.1, viewerZone: zone)
      let text = Data(file.serialized(productID: "-//Kalends//\(Store.softwareVersion)//EN").utf8)
      if output == "-" {
        FileHandle.standardOutput.write(text)
      } else if !FileManager.default.createFile(atPath: output, contents: text) {
        throw CLIError(message: "cannot write \(output) — check the directory and its permissions", status: .storage)
      }
    }
  }
}
