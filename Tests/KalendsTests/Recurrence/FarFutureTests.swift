import Kalends
import Testing

@Suite("Windows far ahead are fast, and rules that never match end")
struct FarFutureTests {
  @Test(arguments: [
    "FREQ=DAILY", "FREQ=WEEKLY;INTERVAL=3;BYDAY=MO,TH", "FREQ=MONTHLY;BYDAY=MO,TU,WE,TH,FR;BYSETPOS=-1",
  ])
  func aWindowThousandsOfYearsAheadSkipsWholePeriods(rule: String) throws {
    let set = try series("20000103T090000", rule, zone: "Europe/Berlin")
    let clock = ContinuousClock()
    let began = clock.now
    let window = Array(set.occurrences(from: utc("88880101T000000Z"), to: utc("88880401T000000Z")))
    #expect(clock.now - began < .milliseconds(200))
    #expect(!window.isEmpty)
    #expect(window.allSatisfy { $0.start >= utc("88880101T000000Z") - 7200 && $0.start < utc("88880401T000000Z") })
    #expect(window.allSatisfy { $0.local.hour == 9 })
  }

  @Test func aFarWindowAgreesWithTheOracle() throws {
    let cases = [
      OracleCase(
        id: 1, kind: "zoned", zone: "America/New_York", dtstart: "20010101T093000",
        rules: ["FREQ=WEEKLY;INTERVAL=2;BYDAY=MO,TH;WKST=SU"], rdates: [], exdates: [], limit: 40,
        after: "24000301T000000", horizonYear: 2400),
      OracleCase(
        id: 2, kind: "zoned", zone: "Australia/Sydney", dtstart: "19990131T023000",
        rules: ["FREQ=MONTHLY;BYDAY=MO,TU,WE,TH,FR;BYSETPOS=-1,1"], rdates: [], exdates: [], limit: 40,
        after: "23800101T000000", horizonYear: 2400),
      OracleCase(
        id: 3, kind: "floating", zone: nil, dtstart: "20000101T020000", rules: ["FREQ=DAILY;INTERVAL=7"], rdates: [],
        exdates: [], limit: 40, after: "23990601T000000", horizonYear: 2400),
    ]
    let results = try RecurrenceOracle.run(cases)
    for oracle in cases {
      let set = try RecurrenceSet(
        start: local(oracle.dtstart), zone: try oracle.zone.map { try ZoneRules.named($0) },
        rules: try oracle.rules.map { try RecurrenceRule(parsing: $0) })
      let expected = try #require(results[oracle.id])
      #expect(expected.count == 40)
      #expect(OracleComparison.difference(set, oracle, expected) == nil)
    }
  }

  @Test(arguments: [
    "FREQ=YEARLY;BYMONTH=2;BYMONTHDAY=30", "FREQ=DAILY;BYMONTH=2;BYMONTHDAY=30", "FREQ=MONTHLY;BYMONTHDAY=31;BYMONTH=4",
    "FREQ=WEEKLY;BYDAY=MO;BYMONTH=2;BYSETPOS=2", "FREQ=MONTHLY;BYDAY=MO;BYSETPOS=40",
  ])
  func aRuleThatNeverMatchesEnds(rule: String) throws {
    let set = try series("20240101T090000", rule, zone: "Europe/Berlin")
    let everything = Array(set.occurrences(from: .min, to: .max))
    #expect(everything.map(\.local) == [local("20240101T090000")])
  }

  @Test func aRareRuleIsStillFound() throws {
    // February 29 on a Monday: every 28 years, but 40 years across 2100, which is not a leap year.
    let set = try series("20240101T090000", "FREQ=DAILY;BYMONTH=2;BYMONTHDAY=29;BYDAY=MO")
    #expect(
      set.firstLocals(5) == [
        "20240101T090000", "20440229T090000", "20720229T090000", "21120229T090000", "21400229T090000",
      ])
  }
}
