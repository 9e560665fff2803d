import Foundation
import Kalends
import Testing

@Suite("Zone rules come from the system's TZif files")
struct ZoneRulesTests {
  @Test func unknownIdentifiersAreATypedError() {
    #expect(throws: ZoneRulesError.unknownIdentifier("Mars/Olympus_Mons")) { try ZoneRules.named("Mars/Olympus_Mons") }
    #expect(throws: ZoneRulesError.unknownIdentifier("../../etc/passwd")) { try ZoneRules.named("../../etc/passwd") }
    #expect(throws: ZoneRulesError.unknownIdentifier("America")) { try ZoneRules.named("America") }
    #expect(throws: ZoneRulesError.unknownIdentifier("")) { try ZoneRules.named("") }
  }

  @Test func offsetsFollowDaylightSavingTime() throws {
    let newYork = try ZoneRules.named("America/New_York")
    #expect(newYork.offset(atUTC: utc("20240310T065959Z")) == -5 * 3600)
    #expect(newYork.offset(atUTC: utc("20240310T070000Z")) == -4 * 3600)
    #expect(newYork.offset(atUTC: utc("20241103T055959Z")) == -4 * 3600)
    #expect(newYork.offset(atUTC: utc("20241103T060000Z")) == -5 * 3600)
  }

  @Test func offsetsFarBeyondTheTableFollowTheFooterRule() throws {
    let sydney = try ZoneRules.named("Australia/Sydney")
    // In 2500, Sydney still observes AEDT (+11) from the first Sunday of October to the first Sunday of April.
    #expect(sydney.offset(atUTC: utc("25000115T000000Z")) == 11 * 3600)
    #expect(sydney.offset(atUTC: utc("25000715T000000Z")) == 10 * 3600)
    #expect(sydney.resolve(local("25000115T120000")) == utc("25000115T010000Z"))
  }

  @Test func offsetsAgreeWithFoundationOverThreeDecades() throws {
    for identifier in ["America/New_York", "Europe/Berlin", "Australia/Sydney", "Asia/Kolkata", "America/Sao_Paulo"] {
      let rules = try ZoneRules.named(identifier)
      let zone = TimeZone(identifier: identifier)!
      for seconds in stride(from: utc("19950101T000000Z"), to: utc("20300101T000000Z"), by: 86_400 * 7 + 3_607) {
        #expect(
          rules.offset(atUTC: seconds) == zone.secondsFromGMT(for: Date(timeIntervalSince1970: Double(seconds))),
          "\(identifier) at \(seconds)")
      }
    }
  }

  @Test func loadingIsCachedAndSafeFromManyThreads() async throws {
    let loaded = try await withThrowingTaskGroup(of: ZoneRules.self) { group in
      for _ in 0..<16 { group.addTask { try ZoneRules.named("Europe/Lisbon") } }
      return try await group.reduce(into: []) { $0.append($1) }
    }
    #expect(Set(loaded).count == 1)
    #expect(loaded.allSatisfy { $0.offset(atUTC: utc("20240701T000000Z")) == 3600 })
  }
}
