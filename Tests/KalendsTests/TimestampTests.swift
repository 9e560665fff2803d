import Foundation
import Kalends
import Testing

@Suite("Timestamps")
struct TimestampTests {
  @Test(arguments: [
    Int64(0), 1, -1, 951_782_400_000_000, 1_709_164_800_123_456, -2_208_988_800_000_000, 4_102_444_799_999_999,
    253_402_300_799_000_000,
  ])
  func formattingMatchesFoundationsISO8601(microseconds: Int64) {
    let formatter = ISO8601DateFormatter()
    formatter.formatOptions = [.withInternetDateTime]
    formatter.timeZone = TimeZone(identifier: "UTC")
    let seconds = microseconds >= 0 ? microseconds / 1_000_000 : (microseconds - 999_999) / 1_000_000
    let fraction = microseconds - seconds * 1_000_000
    let expected = formatter.string(from: Date(timeIntervalSince1970: Double(seconds)))
      .replacingOccurrences(of: "Z", with: String(format: ".%06lldZ", fraction))
    #expect(Timestamp(rawValue: microseconds).description == expected)
  }

  @Test func nowIsCloseToFoundationsClock() {
    let now = Timestamp.now().secondsSince1970
    #expect(abs(now - Date().timeIntervalSince1970) < 5)
  }
}
