import Kalends
import Testing

@Suite("Wall-clock occurrences resolve to instants by RFC 5545 §3.3.5")
struct DaylightSavingTests {
  @Test func aTimeInTheSpringGapTakesTheOffsetBeforeTheGap() throws {
    let set = try series("20240309T023000", "FREQ=DAILY;COUNT=3", zone: "America/New_York")
    let occurrences = set.first(3)
    #expect(occurrences.map(\.local.iCalendarText) == ["20240309T023000", "20240310T023000", "20240311T023000"])
    // 02:30 EST on March 10 does not exist: read with EST (−5) it is 07:30Z, which is 03:30 EDT.
    #expect(occurrences.map(\.start) == [utc("20240309T073000Z"), utc("20240310T073000Z"), utc("20240311T063000Z")])
  }

  @Test func aRepeatedAutumnTimeMeansItsFirstOccurrence() throws {
    let set = try series("20241102T013000", "FREQ=DAILY;COUNT=3", zone: "America/New_York")
    // 01:30 on November 3 happens in EDT and again in EST; the first is 05:30Z.
    #expect(
      set.first(3).map(\.start) == [utc("20241102T053000Z"), utc("20241103T053000Z"), utc("20241104T063000Z")])
  }

  @Test func aUTCUntilIsComparedWithTheInstantNotTheWallClock() throws {
    // 10:00 in Berlin is 09:00Z in winter and 08:00Z from March 31 (CEST).
    let inclusive = try series("20240325T100000", "FREQ=DAILY;UNTIL=20240401T080000Z", zone: "Europe/Berlin")
    #expect(inclusive.first(20).count == 8)
    #expect(inclusive.first(20).last?.local == local("20240401T100000"))
    let before = try series("20240325T100000", "FREQ=DAILY;UNTIL=20240401T075959Z", zone: "Europe/Berlin")
    #expect(before.first(20).last?.local == local("20240331T100000"))
  }

  @Test func occurrencesInsideOneGapHourAreReorderedByInstant() throws {
    // 02:00 and 02:30 fall in the gap and resolve to 07:00Z and 07:30Z; 03:00 EDT is 07:00Z too.
    let set = try series(
      "20240310T010000", "FREQ=DAILY;COUNT=5;BYHOUR=1,2,3;BYMINUTE=0,30", zone: "America/New_York")
    let occurrences = set.first(5)
    #expect(
      occurrences.map(\.local.iCalendarText) == [
        "20240310T010000", "20240310T013000", "20240310T020000", "20240310T030000", "20240310T023000",
      ])
    #expect(occurrences.map(\.start) == occurrences.map(\.start).sorted())
  }
}
