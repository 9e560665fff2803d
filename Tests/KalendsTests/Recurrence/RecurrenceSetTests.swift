import Kalends
import Testing

@Suite("A recurrence set is DTSTART + rules + RDATEs − EXDATEs")
struct RecurrenceSetTests {
  @Test func anExceptionDateRemovesThatOccurrence() throws {
    let set = try series("20240101T090000", "FREQ=DAILY;COUNT=4", exdates: ["20240102T090000", "20240103T100000"])
    #expect(set.firstLocals(10) == ["20240101T090000", "20240103T090000", "20240104T090000"])
  }

  @Test func anExceptionDateCanRemoveTheStartItself() throws {
    let set = try series("20240101T090000", "FREQ=DAILY;COUNT=2", exdates: ["20240101T090000"])
    #expect(set.firstLocals(10) == ["20240102T090000"])
  }

  @Test func aRecurrenceDateAddsAnOccurrenceInOrderWithoutDuplicates() throws {
    let set = try series(
      "20240101T090000", "FREQ=WEEKLY;COUNT=3", rdates: ["20240103T140000", "20240108T090000", "20300101T000000"])
    #expect(
      set.firstLocals(10) == [
        "20240101T090000", "20240103T140000", "20240108T090000", "20240115T090000", "20300101T000000",
      ])
  }

  @Test func theStartIsAnOccurrenceEvenWhenTheRuleDoesNotMatchIt() throws {
    // 2024-01-01 is a Monday; the rule's COUNT counts only the Fridays it generates.
    let set = try series("20240101T090000", "FREQ=WEEKLY;BYDAY=FR;COUNT=2")
    #expect(set.firstLocals(10) == ["20240101T090000", "20240105T090000", "20240112T090000"])
  }

  @Test func severalRulesAreMerged() throws {
    let set = try series("20240101T090000", "FREQ=WEEKLY;BYDAY=MO;COUNT=2", "FREQ=WEEKLY;BYDAY=WE,MO;COUNT=2")
    #expect(set.firstLocals(10) == ["20240101T090000", "20240103T090000", "20240108T090000"])
  }

  @Test func withoutRulesTheSetIsTheStartAndTheRecurrenceDates() throws {
    let set = try series("20240101T090000", rdates: ["20240105T090000"])
    #expect(set.firstLocals(10) == ["20240101T090000", "20240105T090000"])
  }
}

@Suite("Floating and all-day series are placed in the viewer's zone")
struct FloatingSeriesTests {
  @Test func aFloatingSeriesKeepsItsWallClockInEveryZone() throws {
    let set = try series("20240101T090000", "FREQ=DAILY;COUNT=2")
    let tokyo = try ZoneRules.named("Asia/Tokyo")
    let berlin = try ZoneRules.named("Europe/Berlin")
    #expect(set.first(2, viewerZone: tokyo).map(\.start) == [utc("20240101T000000Z"), utc("20240102T000000Z")])
    #expect(set.first(2, viewerZone: berlin).map(\.start) == [utc("20240101T080000Z"), utc("20240102T080000Z")])
    #expect(set.first(2).map(\.start) == [utc("20240101T090000Z"), utc("20240102T090000Z")])
  }

  @Test func anAllDaySeriesIsWholeCalendarDaysEvenAcrossADaylightSavingChange() throws {
    let set = try series("20240309", "FREQ=DAILY;COUNT=3", allDay: true, duration: 86_400)
    let newYork = try ZoneRules.named("America/New_York")
    let days = set.first(3, viewerZone: newYork)
    #expect(days.map(\.local.iCalendarDateText) == ["20240309", "20240310", "20240311"])
    #expect(days[1].start == utc("20240310T050000Z"))
    #expect(days[1].end == utc("20240311T040000Z"))  // March 10 lasts 23 hours in New York
  }

  @Test func anAllDayUntilIsComparedByDate() throws {
    let set = try series("20240101", "FREQ=DAILY;UNTIL=20240103T000000Z", allDay: true)
    #expect(set.firstLocals(10) == ["20240101T000000", "20240102T000000", "20240103T000000"])
  }

  @Test func aDateUntilOnATimedSeriesIncludesThatWholeDay() throws {
    let set = try series("20240101T230000", "FREQ=DAILY;UNTIL=20240102", zone: "Europe/Berlin")
    #expect(set.firstLocals(10) == ["20240101T230000", "20240102T230000"])
  }
}

@Suite("A window returns the occurrences that overlap it")
struct WindowTests {
  @Test func occurrencesStartingBeforeTheWindowButEndingInsideItAreIncluded() throws {
    let set = try series("20240101T090000", "FREQ=DAILY", zone: "UTC", duration: 3 * 3600)
    let window = set.occurrences(from: utc("20240105T110000Z"), to: utc("20240106T090000Z"))
    #expect(window.map(\.local) == [local("20240105T090000")])
    let touching = set.occurrences(from: utc("20240105T120000Z"), to: utc("20240106T090000Z"))
    #expect(Array(touching).isEmpty)
  }

  @Test func zeroLengthOccurrencesCountAtTheirInstant() throws {
    let set = try series("20240101T090000", "FREQ=DAILY", zone: "UTC")
    let window = set.occurrences(from: utc("20240105T090000Z"), to: utc("20240107T090000Z"))
    #expect(window.map(\.local) == [local("20240105T090000"), local("20240106T090000")])
  }

  @Test func anOccurrenceIsFoundByItsWallClockStart() throws {
    let set = try series("20240101T090000", "FREQ=WEEKLY;BYDAY=MO", zone: "Europe/Berlin", duration: 3600)
    #expect(set.occurrence(at: local("20240108T090000"))?.start == utc("20240108T080000Z"))
    #expect(set.occurrence(at: local("20240109T090000")) == nil)
  }
}
