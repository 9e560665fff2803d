import Foundation
import KalendsTestSupport
import Testing

/// A client's alarms come back as it stored them: every property of each `VALARM` but the
/// `TRIGGER` kept as written, and the `TRIGGER` firing when it did — checked by PyPI's `icalendar`
/// (Tests/Oracles/ical_alarm_check.py), not by Kalends.
@Suite("Alarms of DAV clients, kept")
struct DAVAlarmTests {
  static let check = Repository.root
    .appendingPathComponent("Tests/Oracles/ical_alarm_check.py").path

  /// An event with Thunderbird's display alarm, an audio alarm with its attachment, an alarm
  /// acknowledged (RFC 9074) and one before the end; a plain one as Kalends would write it.
  static let event = [
    "BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//Mozilla.org/NONSGML Mozilla Calendar V1.1//EN", "BEGIN:VEVENT",
    "UID:alarms@example.com", "DTSTAMP:20260101T000000Z", "DTSTART;TZID=Europe/Paris:20261203T100000",
    "DTEND;TZID=Europe/Paris:20261203T113000", "SUMMARY:Board meeting", "X-MOZ-LASTACK:20261203T084500Z",
    "BEGIN:VALARM", "ACTION:DISPLAY", "TRIGGER;VALUE=DURATION:-PT15M", "DESCRIPTION:Default Mozilla Description",
    "END:VALARM", "BEGIN:VALARM", "UID:2D1A6B4C-1E5F-4B7A-9C3D-0E8F7A6B5C4D", "ACTION:AUDIO",
    "TRIGGER:-PT1H", "ATTACH;FMTTYPE=audio/basic:https://example.com/chime.au", "REPEAT:2", "DURATION:PT5M",
    "X-WR-ALARMUID:2D1A6B4C-1E5F-4B7A-9C3D-0E8F7A6B5C4D", "END:VALARM", "BEGIN:VALARM", "ACTION:DISPLAY",
    "DESCRIPTION:Wrap up", "TRIGGER;RELATED=END:-PT10M", "ACKNOWLEDGED:20261203T110000Z", "END:VALARM",
    "BEGIN:VALARM", "ACTION:DISPLAY", "DESCRIPTION:Board meeting", "TRIGGER:-P1D", "END:VALARM", "END:VEVENT",
    "END:VCALENDAR", "",
  ].joined(separator: "\r\n")

  static let task = [
    "BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//Apple Inc.//iOS 18//EN", "BEGIN:VTODO", "UID:task@example.com",
    "DTSTAMP:20260101T000000Z", "DUE;VALUE=DATE-TIME:20261204T170000Z", "SUMMARY:File the report",
    "BEGIN:VALARM", "ACTION:DISPLAY", "DESCRIPTION:Reminder", "TRIGGER;VALUE=DATE-TIME:20261204T160000Z",
    "X-APPLE-DEFAULT-ALARM:FALSE", "UID:7B8C9D0E-1F2A-4B3C-8D4E-5F6A7B8C9D0E", "END:VALARM", "END:VTODO",
    "END:VCALENDAR", "",
  ].joined(separator: "\r\n")

  @Test func everyPropertyOfAnAlarmComesBackAndItFiresWhenItDid() throws {
    let served = try ServedStore(["--listen", "127.0.0.1:0"])
    let base = "http://" + (try #require(served.tcpAddress))
    let work = try served.store.calendar("Work", ["--events-and-reminders"])
    let token = try served.tokenApp("org.mozilla.thunderbird", access: ["--status", "full"])
    try served.store.object([
      "access", "set", "org.mozilla.thunderbird", "--service", "reminders", "--status", "full",
    ])
    let directory = TemporaryDirectory()
    var alarms = 0
    for (name, text) in [("alarms%40example.com", Self.event), ("task%40example.com", Self.task)] {
      let object = base + "/dav/calendars/\(work)/\(name).ics"
      let put = try ServedStore.request(
        "PUT", object, token: token, body: text, headers: ["Content-Type: text/calendar"])
      #expect(put.status == 201, "\(put.body)")
      let get = try ServedStore.request("GET", object, token: token)
      #expect(get.status == 200)
      let stored = URL(fileURLWithPath: directory.path + "/\(name)-stored.ics")
      let back = URL(fileURLWithPath: directory.path + "/\(name)-served.ics")
      try Data(text.utf8).write(to: stored)
      try Data(get.body.utf8).write(to: back)
      let result = try CLI.run(
        ["python3", Self.check, stored.path, back.path], program: URL(fileURLWithPath: "/usr/bin/env"))
      #expect(result.status == 0, "\(result.stderr)\n\(get.body)")
      alarms += (try json(result.stdout) as? [String: Any])?["alarms"] as? Int ?? 0
      // Served twice alike: nothing of the alarms is made up anew.
      #expect(try ServedStore.request("GET", object, token: token).body == get.body)
    }
    #expect(alarms == 5)
    // The agenda still fires them: the alarm before the end at 11:20 Paris time.
    let due = try served.store.objects([
      "alarms", "--from", "2026-12-03T10:00:00", "--to", "2026-12-03T10:30:00", "--tz", "UTC",
    ])
    #expect(due.count == 1, "\(due)")
  }
}
