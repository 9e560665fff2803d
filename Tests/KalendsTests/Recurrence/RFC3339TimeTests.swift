import Kalends
import Testing

@Suite("RFC 3339 times")
struct RFC3339TimeTests {
  static let berlin = try? ZoneRules.named("Europe/Berlin")

  @Test func aDateIsItsMidnight() throws {
    #expect(RFC3339Time("2026-03-29") == .date(try #require(LocalDateTime(year: 2026, month: 3, day: 29))))
    #expect(RFC3339Time("2024-02-29")?.isDate == true)
  }

  @Test func aTimeWithoutOffsetIsAWallClockTime() throws {
    let nine = try #require(LocalDateTime(year: 2026, month: 3, day: 29, hour: 9, minute: 30))
    #expect(RFC3339Time("2026-03-29T09:30:00") == .wallClock(nine))
    #expect(RFC3339Time("2026-03-29t09:30:00") == .wallClock(nine))
    #expect(RFC3339Time("2026-03-29T09:30:00")?.wallClock(in: Self.berlin) == nine, "a wall clock ignores the zone")
  }

  @Test func aTimeWithZOrAnOffsetIsAnInstant() throws {
    // 2026-03-29T09:30:00Z is 1,774,776,600 seconds after the epoch.
    let utc: Int64 = 1_774_776_600
    #expect(RFC3339Time("2026-03-29T09:30:00Z") == .instant(utc))
    #expect(RFC3339Time("2026-03-29T09:30:00z") == .instant(utc))
    #expect(RFC3339Time("2026-03-29T11:30:00+02:00") == .instant(utc))
    #expect(RFC3339Time("2026-03-29T04:00:00-05:30") == .instant(utc))
    #expect(RFC3339Time("2026-03-29T09:30:00-00:00") == .instant(utc))
    #expect(RFC3339Time("2026-03-29T09:30:00Z")?.isInstant == true)
  }

  @Test func anInstantIsReadOnTheWallClockOfTheZone() throws {
    let instant = try #require(RFC3339Time("2026-03-29T09:30:00Z"))
    #expect(instant.wallClock(in: Self.berlin) == LocalDateTime(year: 2026, month: 3, day: 29, hour: 11, minute: 30))
    #expect(instant.wallClock(in: nil) == LocalDateTime(year: 2026, month: 3, day: 29, hour: 9, minute: 30))
    #expect(RFC3339Time("0001-01-01T00:30:00+01:00")?.wallClock(in: nil) == nil, "before year 1")
  }

  @Test(arguments: [
    "", "2026", "2026-3-29", "2026-03-29 09:30:00", "2026-03-29T09:30", "2026-03-29T09:30:00.5Z",
    "2026-02-30", "2026-13-01", "2026-03-29T24:00:00", "2026-03-29T09:60:00", "2026-03-29T09:30:00+2:00",
    "2026-03-29T09:30:00+0200", "2026-03-29T09:30:00+24:00", "2026-03-29T09:30:00Europe/Berlin", "next friday",
    "2026-03-29T09:30:00ZZ", "20260329",
  ])
  func anythingElseIsRejected(_ text: String) {
    #expect(RFC3339Time(text) == nil)
  }

  @Test func aZonedTimeIsWrittenWithTheOffsetInEffectThen() throws {
    let zone = try #require(Self.berlin)
    let winter = try #require(LocalDateTime(year: 2026, month: 3, day: 28, hour: 9))
    let summer = try #require(LocalDateTime(year: 2026, month: 3, day: 29, hour: 9))
    #expect(RFC3339Time.text(for: winter, in: zone) == "2026-03-28T09:00:00+01:00")
    #expect(RFC3339Time.text(for: summer, in: zone) == "2026-03-29T09:00:00+02:00")
    #expect(RFC3339Time.text(for: summer, in: .utc) == "2026-03-29T09:00:00Z")
    let newYork = try ZoneRules.named("America/New_York")
    #expect(RFC3339Time.text(for: summer, in: newYork) == "2026-03-29T09:00:00-04:00")
    #expect(RFC3339Time.text(for: summer, in: nil) == "2026-03-29T09:00:00", "floating: no offset")
    #expect(RFC3339Time.dateText(for: summer) == "2026-03-29")
  }

  @Test func aSkippedTimeIsWrittenAsTheInstantItIsReadAs() throws {
    let zone = try #require(Self.berlin)
    // Clocks jump from 02:00 to 03:00 on March 29, 2026: 02:30 is read as 03:30 summer time.
    let skipped = try #require(LocalDateTime(year: 2026, month: 3, day: 29, hour: 2, minute: 30))
    #expect(RFC3339Time.text(for: skipped, in: zone) == "2026-03-29T03:30:00+02:00")
  }

  @Test func writtenTextParsesBackToTheSameInstant() throws {
    let zone = try ZoneRules.named("Asia/Kolkata")
    let local = try #require(LocalDateTime(year: 2026, month: 7, day: 1, hour: 18, minute: 45))
    let text = RFC3339Time.text(for: local, in: zone)
    #expect(text == "2026-07-01T18:45:00+05:30")
    #expect(RFC3339Time(text)?.wallClock(in: zone) == local)
    #expect(RFC3339Time(text) == .instant(zone.resolve(local)))
  }
}
