import Kalends
import Testing

/// A calendar file of `lines` (CRLF), with `VCALENDAR` around them.
func calendarText(_ lines: [String], ending: String = "\r\n") -> String {
  (["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//Kalends tests//EN"] + lines + ["END:VCALENDAR"])
    .joined(separator: ending) + ending
}

/// One `VEVENT` of `lines`, with a UID.
func eventLines(_ lines: [String], uid: String = "event@kalends.test") -> [String] {
  ["BEGIN:VEVENT", "UID:\(uid)", "DTSTAMP:20260101T000000Z"] + lines + ["END:VEVENT"]
}

/// The error reading `text` raises, or `nil`.
func parseError(_ text: String) -> ICalendarError? {
  do {
    _ = try ICalendar(parsing: text)
    return nil
  } catch {
    return error
  }
}

@Suite("Reading iCalendar files")
struct ICalendarParsingTests {
  @Test func foldedLinesEscapesAndParametersAreRead() throws {
    let text = calendarText(
      eventLines([
        "DTSTART:20260301T090000Z",
        "SUMMARY:Planning\\, budget\\; and \\\\ notes\\nline two — a long title folded",
        " across lines,",
        "\t with a tab",
        "X-VENDOR-THING;X-PARAM=\"a:b;c,d\";X-OTHER=plain:value: with colon",
        "CATEGORIES:Work,Budget\\, 2026",
        "CATEGORIES:Later",
      ]))
    let event = try #require(try ICalendar(parsing: text).events.first)
    #expect(event.title == "Planning, budget; and \\ notes\nline two — a long title foldedacross lines, with a tab")
    #expect(event.additionalProperties == ["X-VENDOR-THING;X-PARAM=\"a:b;c,d\";X-OTHER=plain:value: with colon"])
    #expect(event.categories == ["Work", "Budget, 2026", "Later"])
  }

  @Test func bareLineFeedsAndAByteOrderMarkAreAccepted() throws {
    let text = "\u{FEFF}" + calendarText(eventLines(["DTSTART:20260301T090000Z", "SUMMARY:LF only"]), ending: "\n")
    #expect(try ICalendar(parsing: text).events.map(\.title) == ["LF only"])
  }

  @Test func timesAreReadInEveryForm() throws {
    let file = try ICalendar(
      parsing: calendarText(
        eventLines(["DTSTART;VALUE=DATE:20260301", "SUMMARY:all day"], uid: "a")
          + eventLines(["DTSTART:20260301T090000Z", "DTEND:20260301T100000Z", "SUMMARY:utc"], uid: "b")
          + eventLines(["DTSTART:20260301T090000", "DURATION:PT1H30M", "SUMMARY:floating"], uid: "c")
          + eventLines(
            ["DTSTART;TZID=Europe/Berlin:20260328T120000", "DURATION:P1D", "SUMMARY:zoned over DST"], uid: "d")
          + eventLines(
            [
              "DTSTART;TZID=Europe/Berlin:20260301T090000", "DTEND;TZID=America/New_York:20260301T040000",
              "SUMMARY:two zones",
            ],
            uid: "e")))
    let byTitle = Dictionary(uniqueKeysWithValues: file.events.map { ($0.title, $0) })
    let allDay = try #require(byTitle["all day"])
    #expect(allDay.isAllDay && allDay.timeZone == nil)
    #expect(allDay.start == local(2026, 3, 1) && allDay.end == local(2026, 3, 2))
    #expect(byTitle["utc"]?.timeZone == "UTC" && byTitle["utc"]?.end == local(2026, 3, 1, 10))
    #expect(byTitle["floating"]?.timeZone == nil && byTitle["floating"]?.end == local(2026, 3, 1, 10, 30))
    // A day is nominal: the wall clock moves by a day across the change to summer time.
    #expect(byTitle["zoned over DST"]?.end == local(2026, 3, 29, 12))
    // An end in another zone keeps its instant, on the start's wall clock: 04:00 New York is 10:00 Berlin.
    #expect(byTitle["two zones"]?.end == local(2026, 3, 1, 10))
  }

  @Test func timeZoneIdentifiersResolveToIANAZones() throws {
    let customLondon = [
      "BEGIN:VTIMEZONE", "TZID:Customized Time Zone", "BEGIN:STANDARD", "DTSTART:16010101T020000",
      "TZOFFSETFROM:+0100", "TZOFFSETTO:+0000", "RRULE:FREQ=YEARLY;BYDAY=-1SU;BYMONTH=10", "END:STANDARD",
      "BEGIN:DAYLIGHT", "DTSTART:16010101T010000", "TZOFFSETFROM:+0000", "TZOFFSETTO:+0100",
      "RRULE:FREQ=YEARLY;BYDAY=-1SU;BYMONTH=3", "END:DAYLIGHT", "END:VTIMEZONE",
    ]
    let file = try ICalendar(
      parsing: calendarText(
        customLondon
          + eventLines(["DTSTART;TZID=W. Europe Standard Time:20260301T090000", "SUMMARY:windows"], uid: "a")
          + eventLines(
            ["DTSTART;TZID=/mozilla.org/20050126_1/America/Chicago:20260301T090000", "SUMMARY:vendor"], uid: "b")
          + eventLines(["DTSTART;TZID=Customized Time Zone:20260701T090000", "SUMMARY:custom"], uid: "c")))
    let byTitle = Dictionary(uniqueKeysWithValues: file.events.map { ($0.title, $0) })
    #expect(byTitle["windows"]?.timeZone == "Europe/Berlin")
    #expect(byTitle["vendor"]?.timeZone == "America/Chicago")
    let custom = try #require(byTitle["custom"])
    #expect(custom.timeZone == "Europe/London")  // a Windows zone's main zone comes before the rest
    let zone = try ZoneRules.named(try #require(custom.timeZone))
    let london = try ZoneRules.named("Europe/London")
    for month in 1...12 {
      let instant = london.resolve(local(2026, month, 15, 9))
      #expect(zone.offset(atUTC: instant) == london.offset(atUTC: instant), "month \(month) in \(zone)")
    }
    #expect(zone.resolve(custom.start!) == london.resolve(local(2026, 7, 1, 9)))
  }

  @Test func aTimeZoneNoIANAZoneMatchesIsConvertedToUTCThroughItsDefinition() throws {
    let file = try ICalendar(parsing: ICalendarTesting.fixture("custom-zone"))
    let byTitle = Dictionary(uniqueKeysWithValues: file.events.map { ($0.title, $0) })
    #expect(byTitle["Winter meeting"]?.timeZone == "UTC")
    #expect(byTitle["Winter meeting"]?.start == local(2026, 3, 1, 5, 15))  // 09:00 at +03:45
    #expect(byTitle["Summer meeting"]?.start == local(2026, 7, 1, 4, 15))  // 09:00 at +04:45
  }

  @Test func xWRTimeZoneMovesUTCAndFloatingEventTimesIntoIt() throws {
    let file = try ICalendar(
      parsing: calendarText(
        ["X-WR-TIMEZONE:America/New_York"]
          + eventLines(["DTSTART:20260301T150000Z", "SUMMARY:utc"], uid: "a")
          + eventLines(["DTSTART:20260301T090000", "SUMMARY:floating"], uid: "b")
          + eventLines(["DTSTART;VALUE=DATE:20260301", "SUMMARY:date"], uid: "c")))
    let byTitle = Dictionary(uniqueKeysWithValues: file.events.map { ($0.title, $0) })
    #expect(byTitle["utc"]?.timeZone == "America/New_York" && byTitle["utc"]?.start == local(2026, 3, 1, 10))
    #expect(byTitle["floating"]?.timeZone == "America/New_York" && byTitle["floating"]?.start == local(2026, 3, 1, 9))
    #expect(byTitle["date"]?.timeZone == nil && byTitle["date"]?.isAllDay == true)
  }

  @Test func overridesBecomeDetachedOccurrencesAndThisAndFutureSplitsTheSeries() throws {
    let file = try ICalendar(parsing: ICalendarTesting.fixture("thisandfuture"))
    let split = file.events.filter { $0.externalID.hasPrefix("series-split@") }
    #expect(split.count == 2)
    let ended = try #require(split.first { $0.externalID == "series-split@kalends.test" })
    let continued = try #require(split.first { $0.externalID != "series-split@kalends.test" })
    #expect(try occurrenceStarts(of: ended) == (0..<4).map { local(2026, 1, 5 + 7 * $0, 9) })
    #expect(continued.title == "Office hours (afternoons)")
    #expect(try occurrenceStarts(of: continued).count == 6)
    #expect(try occurrenceStarts(of: continued).first == local(2026, 2, 2, 14))
    let orphan = try #require(file.events.first { $0.externalID == "orphan@kalends.test" })
    #expect(!orphan.isRecurring && orphan.additionalProperties == ["RECURRENCE-ID:20260310T120000Z"])

    let google = try ICalendar(parsing: ICalendarTesting.fixture("google"))
    let standup = try #require(google.events.first { $0.title == "Standup" })
    let moved = try #require(standup.detachedOccurrences[local(2026, 3, 11, 9, 30)])
    #expect(moved.title == "Standup (late)" && moved.start == local(2026, 3, 11, 11) && moved.sequence == 3)
    #expect(standup.sequence == 2)
    #expect(
      standup.exceptionDates.sorted() == [
        local(2026, 4, 6, 9, 30), local(2026, 5, 1, 9, 30), local(2026, 5, 25, 9, 30),
      ])
    // Google's own description is kept (the writer would describe the title).
    #expect(
      standup.alarms == [Alarm(relativeOffset: -600, additionalProperties: ["DESCRIPTION:This is an event reminder"])])
    #expect(standup.status == .confirmed && standup.availability == .busy)
    #expect(standup.creationDate == Timestamp(rawValue: 1_771_142_400 * 1_000_000))
    #expect(
      standup.additionalProperties.contains {
        $0.hasPrefix("ATTENDEE;CUTYPE=INDIVIDUAL") && $0.contains("CN=\"Doe, John\"")
      })
  }

  @Test func toDosBecomeReminders() throws {
    let apple = try ICalendar(parsing: ICalendarTesting.fixture("apple"))
    let passport = try #require(apple.reminders.first { $0.title == "Renew passport" })
    #expect(passport.dueDate == local(2026, 4, 20) && passport.isDueDateOnly && passport.priority == 1)
    #expect(!passport.isCompleted)
    // 16:00Z the day before, date read in UTC; Apple's description kept.
    #expect(
      passport.alarms == [Alarm(relativeOffset: 16 * 3600 - 86_400, additionalProperties: ["DESCRIPTION:Reminder"])])
    let milk = try #require(apple.reminders.first { $0.title == "Buy milk" })
    #expect(milk.isCompleted && milk.completionDate == Timestamp(rawValue: 1_772_442_900 * 1_000_000))
    #expect(milk.timeZone == "America/Los_Angeles" && milk.dueDate == local(2026, 3, 2, 18))
    #expect(milk.additionalProperties == ["PERCENT-COMPLETE:100"])
    let thunderbird = try ICalendar(parsing: ICalendarTesting.fixture("thunderbird"))
    let programme = try #require(thunderbird.reminders.first)
    #expect(programme.additionalProperties.contains("STATUS:IN-PROCESS") && !programme.isCompleted)
    #expect(programme.additionalProperties.contains("PERCENT-COMPLETE:50"))
  }

  @Test func alarmsAreRelativeToTheStartOrTheEnd() throws {
    let event = try #require(
      try ICalendar(
        parsing: calendarText(
          eventLines([
            "DTSTART:20260301T090000Z", "DTEND:20260301T100000Z", "BEGIN:VALARM", "ACTION:DISPLAY",
            "TRIGGER:-PT15M", "END:VALARM", "BEGIN:VALARM", "ACTION:DISPLAY", "TRIGGER;RELATED=END:PT5M",
            "END:VALARM", "BEGIN:VALARM", "ACTION:DISPLAY", "TRIGGER;VALUE=DATE-TIME:20260301T080000Z", "END:VALARM",
          ]))
      ).events.first)
    #expect(event.alarms.map(\.relativeOffset) == [-900, 3900, -3600])
  }

  @Test(arguments: [
    (eventLines(["SUMMARY:no start"]), 4, "VEVENT has no DTSTART"),
    (eventLines(["DTSTART:20261301T090000Z"]), 7, "DTSTART value \"20261301T090000Z\""),
    (eventLines(["DTSTART:20260301T090000Z", "RRULE:FREQ=WEEKLY;BYDAY=MO,XX"]), 8, "BYDAY=XX"),
    (eventLines(["DTSTART:20260301T090000Z", "RRULE:FREQ=HOURLY"]), 8, "HOURLY"),
    (eventLines(["DTSTART;TZID=Mars/Olympus_Mons:20260301T090000"]), 7, "Mars/Olympus_Mons"),
    (eventLines(["DTSTART:20260301T090000Z", "DTEND:20260301T080000Z"]), 4, "ends before it starts"),
    (eventLines(["DTSTART:20260301T090000Z", "DURATION:1 hour"]), 8, "DURATION"),
    (["BEGIN:VEVENT", "DTSTART:20260301T090000Z", "END:VTODO"], 6, "END:VTODO where END:VEVENT"),
    (["BEGIN:VTODO", "UID:x", "PRIORITY:12", "END:VTODO"], 6, "PRIORITY value \"12\""),
    (["BEGIN:VEVENT", "DTSTART:20260301T090000Z", "SUMMARY"], 6, "SUMMARY has no \":\""),
  ])
  func errorsNameTheLineAndTheReason(lines: [String], line: Int, reason: String) throws {
    let error = try #require(parseError(calendarText(lines)))
    #expect(error.line == line, "\(error)")
    #expect(error.description.contains(reason), "\(error)")
    #expect(error.description.hasPrefix("line \(line): "))
  }

  @Test func truncatedFilesAndOtherEncodingsAreRefusedClearly() throws {
    let text = calendarText(eventLines(["DTSTART:20260301T090000Z", "SUMMARY:cut"]))
    func cut(_ count: Int) -> String { String(decoding: Array(text.utf8).dropLast(count), as: UTF8.self) }
    #expect(parseError(cut(15))?.reason == .unexpectedEnd(component: "VCALENDAR"))
    #expect(parseError(cut(29))?.reason == .unexpectedEnd(component: "VEVENT"))
    #expect(parseError(cut(44))?.reason == .unexpectedEnd(component: "VEVENT"))
    #expect(parseError(cut(36))?.reason == .truncated)  // "SUMM": cut inside a property name
    #expect(parseError("")?.reason == .notACalendar)
    var latin1 = Array(calendarText(eventLines(["DTSTART:20260301T090000Z", "SUMMARY:caf"])).utf8)
    latin1.insert(0xE9, at: latin1.firstRange(of: Array("caf".utf8))!.upperBound)  // é in Latin-1
    do {
      _ = try ICalendar(parsing: latin1)
      Issue.record("Latin-1 text was accepted")
    } catch {
      #expect(error.reason == .invalidUTF8 && error.line == 8)
    }
    var utf16: [UInt8] = [0xFF, 0xFE]
    for unit in text.utf16 { utf16 += [UInt8(unit & 0xFF), UInt8(unit >> 8)] }
    #expect(throws: ICalendarError.self) { try ICalendar(parsing: utf16) }
    let huge = calendarText(["X-HUGE:" + String(repeating: "a", count: 10 << 20)])
    #expect(parseError(huge).map { ($0.line, $0.description.contains("longer than")) } ?? (0, false) == (4, true))
  }
}
