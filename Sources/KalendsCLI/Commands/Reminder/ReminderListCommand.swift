import ArgumentParser
import Foundation
import Kalends
import KalendsCommandSupport
import KalendsFormats

extension KalendsCommand.Reminder {
  /// `kalends reminder list`: reminders, incomplete first.
  struct List: ParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "list", abstract: "List reminders: incomplete first, then by due date and title.",
      discussion: """
        --due lists the incomplete reminders due today, in the seven days from today (week), or before \
        now (overdue), by due date, as Reminders' Today and Scheduled lists do; days are those of \
        --tz, else $TZ, else the settings' zone, else the system's.
        """)

    /// `--due`: the incomplete reminders due in a window.
    enum Due: String, CaseIterable, ExpressibleByArgument {
      case today, week, overdue
    }

    /// `--completed` or `--incomplete`.
    enum Completion: String, EnumerableFlag {
      case completed, incomplete

      static func help(for value: Completion) -> ArgumentHelp? {
        value == .completed ? "Only completed reminders." : "Only reminders not yet completed."
      }
    }

    @OptionGroup var global: GlobalOptions

    @Option(help: ArgumentHelp("A reminders list's id (repeatable; default: every list).", valueName: "id"))
    var calendar: [String] = []

    @Flag var completion: Completion?

    @Option(help: "Only the incomplete reminders due: today, week (seven days from today) or overdue.")
    var due: Due?

    @Option(help: ArgumentHelp("The IANA time zone whose days --due counts.", valueName: "zone")) var tz: String?

    @Option(help: "Output format.") var format: ObjectFormat = .configured

    func validate() throws {
      if due != nil && completion == .completed { throw ValidationError("--due lists incomplete reminders only") }
    }

    func run() throws {
      let store = try global.openEventStore(readOnly: true)
      let ids = try store.existingCalendarIDs(named: calendar, option: "--calendar")
      let reminders: [Kalends.Reminder]
      if let due {
        let zone = try DateArgument.zone(tz) ?? LocalZone.current
        let now = Int64(Date().timeIntervalSince1970)
        let (from, to) =
          due == .overdue
          ? (Int64.min, now) : try AgendaWindow(due.rawValue, zone: zone, now: now).bounds
        // A reminder due on a day, without a time, is overdue once that day is over (as in Reminders).
        let today = zone.resolve(AgendaWindow.day(containing: now, in: zone))
        reminders = try store.incompleteReminders(dueFrom: from, to: to, inCalendars: ids, viewerZone: zone).filter {
          due != .overdue || !$0.isDueDateOnly || AgendaPage.due($0, zone) < today
        }
      } else {
        reminders = try store.reminders(inCalendars: ids).filter { reminder in
          completion.map { ($0 == .completed) == reminder.isCompleted } ?? true
        }
      }
      format.write(
        reminders, json: \.jsonFields,
        columns: [
          ("ID", \.id.description),
          ("DUE", { $0.dueText ?? "" }),
          ("PRIORITY", { $0.priority == 0 ? "" : String($0.priority) }),
          ("DONE", { $0.isCompleted ? "yes" : "" }),
          ("TITLE", \.title),
        ])
    }
  }
}
