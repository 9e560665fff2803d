import Kalends
import Testing

@Suite("RRULE text parses and prints canonically")
struct RecurrenceRuleTextTests {
  @Test(arguments: [
    "FREQ=WEEKLY;INTERVAL=2;BYDAY=MO,WE",
    "FREQ=MONTHLY;COUNT=10;BYDAY=1MO,-1FR",
    "FREQ=YEARLY;UNTIL=20301231T235959Z;BYMONTH=3,10;BYDAY=-1SU;BYHOUR=2;BYMINUTE=0,30;BYSECOND=15",
    "FREQ=YEARLY;UNTIL=20301231;BYWEEKNO=-1,1,20;BYDAY=MO;WKST=SU",
    "FREQ=YEARLY;UNTIL=20301231T090000;BYYEARDAY=-366,1,100",
    "FREQ=MONTHLY;BYMONTHDAY=-31,-1,1,31;BYSETPOS=-366,366",
    "FREQ=DAILY;BYMONTH=1,12",
  ])
  func canonicalTextRoundTrips(text: String) throws {
    let rule = try RecurrenceRule(parsing: text)
    #expect(rule.description == text)
    #expect(try RecurrenceRule(parsing: rule.description) == rule)
  }

  @Test func parsingAcceptsThePrefixAnyOrderAndAnyCase() throws {
    let rule = try RecurrenceRule(parsing: " RRULE:byday=we,MO,mo;interval=2;freq=weekly;wkst=MO\n")
    #expect(rule == (try RecurrenceRule(frequency: .weekly, interval: 2, byDay: [.init(.monday), .init(.wednesday)])))
    #expect(rule.description == "FREQ=WEEKLY;INTERVAL=2;BYDAY=MO,WE")
    #expect((try RecurrenceRule(parsing: "FREQ=MONTHLY;BYDAY=+2MO")).byDay == [RecurrenceWeekday(.monday, ordinal: 2)])
  }

  @Test func untilKeepsItsKind() throws {
    #expect(try RecurrenceRule(parsing: "FREQ=DAILY;UNTIL=20240105").until == .date(local("20240105")))
    #expect(
      try RecurrenceRule(parsing: "FREQ=DAILY;UNTIL=20240105T090000").until == .floating(local("20240105T090000")))
    #expect(try RecurrenceRule(parsing: "FREQ=DAILY;UNTIL=20240105T090000Z").until == .utc(utc("20240105T090000Z")))
  }

  @Test func mutatedListsStayCanonical() throws {
    var rule = try RecurrenceRule(frequency: .monthly)
    rule.byMonthDay = [15, -1, 15, 1]
    #expect(rule.byMonthDay == [-1, 1, 15])
    #expect(try RecurrenceRule(parsing: rule.description) == rule)
  }
}

@Suite("Invalid rules are rejected with an error naming the part")
struct RecurrenceRuleValidationTests {
  @Test(arguments: [
    ("INTERVAL=2", RecurrenceRuleError.missingFrequency),
    ("FREQ=HOURLY", .unsupportedFrequency("HOURLY")),
    ("FREQ=SECONDLY", .unsupportedFrequency("SECONDLY")),
    ("FREQ=MINUTELY", .unsupportedFrequency("MINUTELY")),
    ("FREQ=FORTNIGHTLY", .unsupportedFrequency("FORTNIGHTLY")),
    ("FREQ=DAILY;BYEASTER=1", .unknownPart("BYEASTER")),
    ("FREQ=DAILY;COUNT", .unknownPart("COUNT")),
    ("FREQ=DAILY;", .unknownPart("")),
    ("FREQ=DAILY;COUNT=2;COUNT=3", .duplicatePart("COUNT")),
    ("FREQ=DAILY;BYDAY=", .emptyValue(part: "BYDAY")),
    ("FREQ=DAILY;BYDAY=MO,,TU", .emptyValue(part: "BYDAY")),
    ("FREQ=DAILY;COUNT=ten", .invalidValue(part: "COUNT", value: "ten", expected: "an integer")),
    (
      "FREQ=DAILY;BYDAY=XX",
      .invalidValue(part: "BYDAY", value: "XX", expected: "a weekday MO…SU, optionally after ±1…53")
    ),
    ("FREQ=DAILY;WKST=MONDAY", .invalidValue(part: "WKST", value: "MONDAY", expected: "MO…SU")),
    (
      "FREQ=DAILY;UNTIL=2024-01-01",
      .invalidValue(
        part: "UNTIL", value: "2024-01-01",
        expected: "a DATE (20241231), a DATE-TIME (20241231T090000) or a UTC DATE-TIME (20241231T090000Z)")
    ),
    ("FREQ=DAILY;INTERVAL=0", .outOfRange(part: "INTERVAL", value: 0, range: 1...1_000_000)),
    ("FREQ=DAILY;COUNT=0", .outOfRange(part: "COUNT", value: 0, range: 1...1_000_000)),
    ("FREQ=MONTHLY;BYDAY=MO;BYSETPOS=400", .outOfRange(part: "BYSETPOS", value: 400, range: -366...366)),
    ("FREQ=MONTHLY;BYDAY=MO;BYSETPOS=0", .outOfRange(part: "BYSETPOS", value: 0, range: -366...366)),
    ("FREQ=YEARLY;BYMONTH=13", .outOfRange(part: "BYMONTH", value: 13, range: 1...12)),
    ("FREQ=YEARLY;BYWEEKNO=54", .outOfRange(part: "BYWEEKNO", value: 54, range: -53...53)),
    ("FREQ=YEARLY;BYYEARDAY=-367", .outOfRange(part: "BYYEARDAY", value: -367, range: -366...366)),
    ("FREQ=MONTHLY;BYMONTHDAY=32", .outOfRange(part: "BYMONTHDAY", value: 32, range: -31...31)),
    ("FREQ=MONTHLY;BYDAY=0MO", .outOfRange(part: "BYDAY", value: 0, range: -53...53)),
    ("FREQ=DAILY;BYHOUR=24", .outOfRange(part: "BYHOUR", value: 24, range: 0...23)),
    ("FREQ=DAILY;BYMINUTE=60", .outOfRange(part: "BYMINUTE", value: 60, range: 0...59)),
    ("FREQ=DAILY;BYSECOND=60", .outOfRange(part: "BYSECOND", value: 60, range: 0...59)),
    ("FREQ=DAILY;COUNT=3;UNTIL=20240101", .countAndUntil),
    ("FREQ=WEEKLY;BYDAY=2MO", .ordinalWeekdayNeedsMonthlyOrYearly(RecurrenceWeekday(.monday, ordinal: 2))),
    ("FREQ=DAILY;BYDAY=-1FR", .ordinalWeekdayNeedsMonthlyOrYearly(RecurrenceWeekday(.friday, ordinal: -1))),
    ("FREQ=YEARLY;BYWEEKNO=1;BYDAY=1MO", .ordinalWeekdayWithWeekNumber(RecurrenceWeekday(.monday, ordinal: 1))),
    ("FREQ=MONTHLY;BYWEEKNO=1", .partNotAllowed(part: "BYWEEKNO", frequency: .monthly)),
    ("FREQ=MONTHLY;BYYEARDAY=1", .partNotAllowed(part: "BYYEARDAY", frequency: .monthly)),
    ("FREQ=WEEKLY;BYMONTHDAY=1", .partNotAllowed(part: "BYMONTHDAY", frequency: .weekly)),
    ("FREQ=MONTHLY;BYSETPOS=1", .setPositionWithoutOtherPart),
  ])
  func invalidTextIsRejected(text: String, error: RecurrenceRuleError) {
    #expect(throws: error) { try RecurrenceRule(parsing: text) }
  }

  @Test func messagesNameThePartAndSayWhatToDo() {
    #expect(
      RecurrenceRuleError.outOfRange(part: "BYSETPOS", value: 400, range: -366...366).description
        == "BYSETPOS=400 is outside -366…366, excluding 0 — use a value in that range")
    #expect(RecurrenceRuleError.countAndUntil.description.hasPrefix("COUNT and UNTIL together"))
    #expect(
      RecurrenceRuleError.ordinalWeekdayNeedsMonthlyOrYearly(RecurrenceWeekday(.monday, ordinal: 2)).description
        .contains("BYDAY ordinals only with MONTHLY or YEARLY"))
    #expect(
      RecurrenceRuleError.partNotAllowed(part: "BYWEEKNO", frequency: .monthly).description
        .contains("BYWEEKNO only with YEARLY"))
  }

  @Test func anUntilDateMustBeMidnight() {
    #expect(throws: RecurrenceRuleError.untilDateWithTimeOfDay(local("20240101T090000"))) {
      try RecurrenceRule(frequency: .daily, until: .date(local("20240101T090000")))
    }
  }

  @Test func absurdTextNeverCrashes() {
    let inputs = [
      "", ";;;", "=", "FREQ==DAILY", "FREQ=DAILY;COUNT=99999999999999999999999", "FREQ=DAILY;BYDAY=-99999999999MO",
      "FREQ=DAILY;UNTIL=99999999T999999Z",
      "FREQ=YEARLY;BYMONTH=" + Array(repeating: "1", count: 10_000).joined(separator: ","),
      "FREQ=DAILY;INTERVAL=-1", "FREQ=DAILY;BYDAY=MO\u{0}", "RRULE:", "FREQ=ÄÖÜ",
    ]
    for input in inputs {
      _ = try? RecurrenceRule(parsing: input)
    }
  }
}

@Suite("A recurrence set rejects inconsistent input")
struct RecurrenceSetValidationTests {
  @Test func allDaySeriesAreFloatingWholeDays() throws {
    let rule = try RecurrenceRule(parsing: "FREQ=DAILY;BYHOUR=9")
    #expect(throws: RecurrenceSetError.allDayStartHasTimeOfDay(local("20240101T090000"))) {
      try RecurrenceSet(start: local("20240101T090000"), isAllDay: true)
    }
    #expect(throws: RecurrenceSetError.allDayWithTimeZone("UTC")) {
      try RecurrenceSet(start: local("20240101"), isAllDay: true, zone: .utc)
    }
    #expect(throws: RecurrenceSetError.allDayDurationNotWholeDays(3600)) {
      try RecurrenceSet(start: local("20240101"), isAllDay: true, duration: 3600)
    }
    #expect(throws: RecurrenceSetError.timeOfDayInAllDayRule(rule)) {
      try RecurrenceSet(start: local("20240101"), isAllDay: true, rules: [rule])
    }
    #expect(throws: RecurrenceSetError.allDayDateHasTimeOfDay(local("20240102T090000"))) {
      try RecurrenceSet(start: local("20240101"), isAllDay: true, exceptionDates: [local("20240102T090000")])
    }
  }

  @Test func durationsAreNotNegative() {
    #expect(throws: RecurrenceSetError.negativeDuration(-1)) {
      try RecurrenceSet(start: local("20240101T090000"), duration: -1)
    }
  }
}
