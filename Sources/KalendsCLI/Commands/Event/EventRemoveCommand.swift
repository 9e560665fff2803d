import ArgumentParser
import Kalends
import KalendsCommandSupport
import KalendsFormats

extension KalendsCommand.Event {
  /// `kalends event remove`: removes an event, a series, or occurrences of it.
  struct Remove: ParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "remove",
      abstract: "Remove an event, or occurrences of a series with --occurrence and --span.",
      discussion: """
        On a series, --occurrence names one occurrence and --span says what goes: this (it becomes an \
        exception date) or future (the series ends before it). Without --occurrence the whole series goes.
        """)

    @OptionGroup var global: GlobalOptions

    @OptionGroup var target: EventTarget

    @OptionGroup var change: ChangeOptions

    func run() throws {
      let store = try global.openEventStore()
      let (event, span) = try target.fetch(from: store)
      let id = event.id
      try change.check(id, fetched: event.version)
      try store.remove(event, span: span, overwrite: change.force)
      let date = (event.occurrenceDate ?? event.start).map(event.text(of:)) ?? "?"
      if try store.event(withID: id) == nil {
        print("removed event \(id)")
      } else if span == .thisEvent {
        print("removed the occurrence \(date) of event \(id) (now an exception date)")
      } else {
        print("removed the occurrences of event \(id) from \(date) on (the series now ends before it)")
      }
    }
  }
}
