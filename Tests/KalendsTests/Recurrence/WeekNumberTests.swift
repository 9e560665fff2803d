import Foundation
import Kalends
import Testing

@Suite("BYWEEKNO follows ISO 8601 week numbering")
struct WeekNumberTests {
  /// Every day of 1995…2040 with its ISO week number and the negative form of it, from Foundation's
  /// ISO 8601 calendar (an implementation independent of Kalends').
  static let isoWeeks: [(day: LocalDateTime, week: Int, fromEnd: Int)] = {
    var calendar = Calendar(identifier: .iso8601)
    calendar.timeZone = TimeZone(identifier: "UTC")!
    var result: [(LocalDateTime, Int, Int)] = []
    var weeksInYear: [Int: Int] = [:]
    let first = local("19950101T120000").wallClockSeconds
    let last = local("20401231T120000").wallClockSeconds
    for seconds in stride(from: first, through: last, by: 86_400) {
      let date = Date(timeIntervalSince1970: Double(seconds))
      let parts = calendar.dateComponents([.weekOfYear, .yearForWeekOfYear], from: date)
      let year = parts.yearForWeekOfYear!
      let weeks =
        weeksInYear[year]
        ?? calendar.component(
          .weekOfYear, from: calendar.date(from: DateComponents(year: year, month: 12, day: 28, hour: 12))!)
      weeksInYear[year] = weeks
      result.append((LocalDateTime(wallClockSeconds: seconds)!, parts.weekOfYear!, parts.weekOfYear! - weeks - 1))
    }
    return result
  }()

  @Test(arguments: Array(1...53) + Array(-53...(-1)))
  func weekNumberSelectsTheDaysOfThatIsoWeek(week: Int) throws {
    let set = try series("19950101T120000", "FREQ=YEARLY;BYWEEKNO=\(week);BYDAY=MO,TU,WE,TH,FR,SA,SU")
    let end = local("20401231T120000")
    let actual = set.occurrences(from: set.start.wallClockSeconds + 1, to: end.wallClockSeconds + 1)
      .map(\.local)
    let expected = Self.isoWeeks.filter { $0.day > set.start && ($0.week == week || $0.fromEnd == week) }.map(\.day)
    #expect(actual == expected)
  }
}
