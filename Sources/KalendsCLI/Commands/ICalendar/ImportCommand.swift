import ArgumentParser
import Foundation
import Kalends
import KalendsCommandSupport
import KalendsFormats

extension KalendsCommand {
  /// `kalends import`: an iCalendar file into a calendar, in one transaction.
  struct Import: ParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "import",
      abstract: "Import an iCalendar (.ics) file: all of it in one transaction, or nothing.",
      discussion: """
        Events (VEVENT, with their RECURRENCE-ID overrides) and reminders (VTODO) go into --calendar, \
        or into a new calendar titled --new-calendar. Without either, into the calendar an earlier \
        import of the same file made (found by the file's X-WR-RELCALID, else its absolute path), or a \
        new one titled by the file's X-WR-CALNAME, else its name. Components other than VEVENT and \
        VTODO (VJOURNAL, VFREEBUSY, …) are skipped and counted in the summary. An item whose UID is already in the calendar is replaced only when the file's SEQUENCE is \
        higher, so importing the same file again changes nothing. A file with an error imports \
        nothing: the error names the line and the reason (exit status 65). FILE - reads standard input.
        """)

    @OptionGroup var global: GlobalOptions

    @Argument(help: ArgumentHelp("The .ics file, or - for standard input.", valueName: "file")) var file: String

    @Option(
      help: ArgumentHelp(
        "Import into this existing calendar (a title or an id, or the start of either).", valueName: "calendar"))
    var calendar: String?

    @Option(help: ArgumentHelp("Import into a new calendar with this title.", valueName: "title"))
    var newCalendar: String?

    @Option(help: "Output format.") var format: ObjectFormat = .configured

    func validate() throws {
      if calendar != nil && newCalendar != nil {
        throw ValidationError("give --calendar or --new-calendar, not both")
      }
    }

    func run() throws {
      let bytes = try Self.read(file)
      let parsed: ICalendar
      do {
        parsed = try ICalendar(parsing: bytes)
      } catch {
        throw StoreError.iCalendar(error)
      }
      let store = try global.openEventStore()
      let destination: ImportDestination
      if let calendar {
        destination = .calendar(try store.calendarNamed(calendar, option: "--calendar"))
      } else {
        let fallback = file == "-" ? "Imported" : URL(fileURLWithPath: file).deletingPathExtension().lastPathComponent
        var new = EventCalendar(title: newCalendar ?? parsed.name ?? fallback)
        new.importSource = source(of: parsed)
        if newCalendar == nil, let source = new.importSource {
          destination = .source(source, new: new)
        } else {
          destination = .newCalendar(new)
        }
      }
      let result = try store.importICalendar(parsed, into: destination)
      format.write([
        ("calendarId", .string(result.calendarID.description)),
        ("createdCalendar", .bool(result.createdCalendar)),
        ("created", .number(Double(result.created))),
        ("updated", .number(Double(result.updated))),
        ("unchanged", .number(Double(result.unchanged))),
        ("skipped", .object(result.skipped.sorted { $0.key < $1.key }.map { ($0.key, .number(Double($0.value))) })),
        ("head", result.lastPosition.map { .number(Double($0.rawValue)) } ?? .null),
      ])
      for (name, count) in result.skipped.sorted(by: { $0.key < $1.key }) {
        FileHandle.standardError.write(
          Data(
            "note: skipped \(count) \(name) component\(count == 1 ? "" : "s") (Kalends keeps VEVENT and VTODO)\n".utf8)
        )
      }
    }

    /// What identifies where the file's calendar comes from: its `X-WR-RELCALID`, else the file's
    /// absolute path (`nil` for standard input without one).
    func source(of parsed: ICalendar) -> String? {
      if let id = parsed.relationID { return "X-WR-RELCALID:" + id }
      guard file != "-" else { return nil }
      return "file:" + URL(fileURLWithPath: file).standardizedFileURL.resolvingSymlinksInPath().path
    }

    /// The bytes of `path`, or of standard input for `-`.
    static func read(_ path: String) throws -> Data {
      if path == "-" { return FileHandle.standardInput.readDataToEndOfFile() }
      guard let data = FileManager.default.contents(atPath: path) else {
        throw CLIError(message: "cannot read \(path) — check the path and its permissions", status: .notFound)
      }
      return data
    }
  }
}
