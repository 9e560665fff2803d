import Foundation
import Kalends

/// The demo's subscribed calendar: public holidays from a feed beside the store
/// (`file:///…/demo.holidays.ics`), so the quickstart needs no network. `kalends serve` refreshes it
/// as it would a feed on the web; edit the file and `kalends subscription refresh` applies it.
enum DemoSubscription {
  /// The feed's file: beside the store, never inside it.
  static func feedPath(of store: String) -> String { store + ".holidays.ics" }

  /// Writes the feed, subscribes to it and applies it; returns the calendar.
  static func subscribe(_ owner: EventStore, storePath: String) throws -> EventCalendar {
    let path = feedPath(of: storePath)
    let bytes = Array(feed(from: Calendar.current.component(.year, from: Date())).utf8)
    try Data(bytes).write(to: URL(fileURLWithPath: path))
    let calendar = try owner.subscribe(to: "file://" + path, title: "Holidays", color: "#34C759")
    try owner.applyFeed(bytes, to: calendar.id)
    return calendar
  }

  /// A feed of a few holidays this year and the next, as a publisher would serve it.
  static func feed(from year: Int) -> String {
    let days = [("0101", "New Year's Day"), ("0501", "Labour Day"), ("1225", "Christmas Day"), ("1226", "Boxing Day")]
    var text =
      "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//Kalends//Demo holidays//EN\r\n"
      + "X-WR-CALNAME:Holidays\r\nREFRESH-INTERVAL;VALUE=DURATION:P1D\r\n"
    for year in [year, year + 1] {
      for (day, name) in days {
        text +=
          "BEGIN:VEVENT\r\nUID:holiday-\(year)\(day)@demo.kalends\r\nDTSTAMP:\(year - 1)1201T000000Z\r\n"
          + "DTSTART;VALUE=DATE:\(year)\(day)\r\nSUMMARY:\(name)\r\nTRANSP:TRANSPARENT\r\nEND:VEVENT\r\n"
      }
    }
    return text + "END:VCALENDAR\r\n"
  }
}
