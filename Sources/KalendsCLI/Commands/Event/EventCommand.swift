import ArgumentParser

extension KalendsCommand {
  /// `kalends event`: events and recurring series.
  struct Event: ParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "event",
      abstract: "Add, show, list, change and remove events, one occurrence of a series or all of it.",
      discussion: """
        Times are typed as spoken (today, tomorrow 10:00, friday 9:30, +3d) or in RFC 3339: 2026-03-29 \
        (a date: all-day), 2026-03-29T09:30:00 (a wall-clock time), 2026-03-29T09:30:00Z or \
        2026-03-29T09:30:00+02:00 (an instant, stored on the wall clock of the event's zone). A \
        wall-clock time is in --tz if given, else in the event's zone; a new or all-day event takes $TZ's \
        zone, else the settings', else the system's; --tz floating makes it floating. Events print their times with the \
        offset of their zone.
        """,
      subcommands: [
        Add.self, Show.self, List.self, Update.self,
        Remove.self, ItemHistoryCommand<EventHistoryKind>.self, ItemRestoreCommand<EventHistoryKind>.self,
      ]
    )
  }
}
