import Kalends
import Testing

@Suite("Invalid dates are skipped, never moved")
struct InvalidDateTests {
  @Test func februaryTwentyNinthRecursOnlyInLeapYears() throws {
    let set = try series("20240229T090000", "FREQ=YEARLY;COUNT=3")
    #expect(set.firstLocals(5) == ["20240229T090000", "20280229T090000", "20320229T090000"])
  }

  @Test func theThirtyFirstSkipsShortMonths() throws {
    let set = try series("20240131T090000", "FREQ=MONTHLY;COUNT=4")
    #expect(set.firstLocals(5) == ["20240131T090000", "20240331T090000", "20240531T090000", "20240731T090000"])
  }

  @Test func aFifthWeekdaySkipsMonthsWithoutOne() throws {
    let set = try series("20240329T090000", "FREQ=MONTHLY;BYDAY=5FR;COUNT=4")
    #expect(set.firstLocals(5) == ["20240329T090000", "20240531T090000", "20240830T090000", "20241129T090000"])
  }
}

@Suite("Negative BYxxx values count from the end")
struct NegativeValueTests {
  @Test func lastWeekdayOfTheMonthWithSetPositionMinusOne() throws {
    let set = try series("20240131T170000", "FREQ=MONTHLY;BYDAY=MO,TU,WE,TH,FR;BYSETPOS=-1;COUNT=4")
    #expect(set.firstLocals(5) == ["20240131T170000", "20240229T170000", "20240329T170000", "20240430T170000"])
  }

  @Test func negativeMonthDayCountsFromTheMonthsEnd() throws {
    let set = try series("20240129T090000", "FREQ=MONTHLY;BYMONTHDAY=-3;COUNT=3")
    #expect(set.firstLocals(4) == ["20240129T090000", "20240227T090000", "20240329T090000"])
  }

  @Test func negativeYearDayCountsFromTheYearsEnd() throws {
    let set = try series("20240101T090000", "FREQ=YEARLY;BYYEARDAY=-366;COUNT=2")
    #expect(set.firstLocals(3) == ["20240101T090000", "20280101T090000"])
    let last = try series("20231231T090000", "FREQ=YEARLY;BYYEARDAY=-1;COUNT=2")
    #expect(last.firstLocals(3) == ["20231231T090000", "20241231T090000"])
  }

  @Test func negativeWeekNumberIsTheLastWeek() throws {
    let set = try series("20241226T090000", "FREQ=YEARLY;BYWEEKNO=-1;BYDAY=TH;COUNT=2")
    #expect(set.firstLocals(3) == ["20241226T090000", "20251225T090000"])
  }
}

@Suite("WKST decides where weeks begin")
struct WeekStartTests {
  @Test func weekStartChangesWhichMondayIsInWeekOne() throws {
    // 2015-01-04 is a Sunday: with Monday weeks, week 1 of 2015 begins 2014-12-29; with Sunday weeks, on 2015-01-04.
    let monday = try series("20140601T090000", "FREQ=YEARLY;BYWEEKNO=1;BYDAY=MO;WKST=MO;COUNT=2")
    let sunday = try series("20140601T090000", "FREQ=YEARLY;BYWEEKNO=1;BYDAY=MO;WKST=SU;COUNT=2")
    #expect(monday.firstLocals(3) == ["20140601T090000", "20141229T090000", "20160104T090000"])
    #expect(sunday.firstLocals(3) == ["20140601T090000", "20150105T090000", "20160104T090000"])
  }

  @Test func biweeklyRulesCountWeeksFromWeekStart() throws {
    // RFC 5545 §3.8.5.3, "changing only WKST from MO to SU yields different results".
    let monday = try series("19970805T090000", "FREQ=WEEKLY;INTERVAL=2;COUNT=4;BYDAY=TU,SU;WKST=MO")
    let sunday = try series("19970805T090000", "FREQ=WEEKLY;INTERVAL=2;COUNT=4;BYDAY=TU,SU;WKST=SU")
    #expect(monday.firstLocals(5) == ["19970805T090000", "19970810T090000", "19970819T090000", "19970824T090000"])
    #expect(sunday.firstLocals(5) == ["19970805T090000", "19970817T090000", "19970819T090000", "19970831T090000"])
  }
}
