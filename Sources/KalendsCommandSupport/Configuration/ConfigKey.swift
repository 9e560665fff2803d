/// A setting of the person's settings file (``ConfigFile``): its name in the file and what it sets.
package enum ConfigKey: String, CaseIterable, Sendable {
  case store
  case calendar
  case reminderList = "reminder-list"
  case zone
  case format
  case notify

  /// What the setting does, for `kalends config show` and the errors that name it.
  package var summary: String {
    switch self {
    case .store: "the store every command uses without --store or $KALENDS_STORE (an absolute path or ~/…)"
    case .calendar: "the calendar `event add` puts events in without --calendar (a title or an id)"
    case .reminderList: "the list `reminder add` puts reminders in without --calendar (a title or an id)"
    case .zone: "the time zone times are read and shown in without --tz or $TZ (an IANA name)"
    case .format: "the output format without --format: table or json"
    case .notify: "how `kalends serve` shows alarms and prompts without --notify: desktop, none or a program"
    }
  }
}
