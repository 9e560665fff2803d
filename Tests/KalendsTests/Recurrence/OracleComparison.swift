import Kalends

/// Compares Kalends' occurrences of a case with the oracle's, over what the oracle covered: from the
/// case's `after` (or DTSTART) to its last occurrence if it returned `limit` of them, else to the horizon.
enum OracleComparison {
  /// nil when they agree, else a description of the first difference.
  static func difference(_ set: RecurrenceSet, _ oracle: OracleCase, _ expected: [(local: String, utc: Int64?)])
    -> String?
  {
    let resolver = set.zone ?? .utc
    let first = LocalDateTime(iCalendar: oracle.after ?? oracle.dtstart)!
    let horizon = LocalDateTime(year: oracle.horizonYear + 1, month: 1, day: 1)!
    let full = expected.count == oracle.limit
    let cutoff = full ? LocalDateTime(iCalendar: expected.last!.local)! : horizon
    var actual: [(local: String, utc: Int64?)] = []
    let window = set.occurrences(from: resolver.resolve(first) - 3 * 86_400, to: resolver.resolve(cutoff) + 3 * 86_400)
    for occurrence in window
    where occurrence.local >= first && (full ? occurrence.local <= cutoff : occurrence.local < cutoff) {
      actual.append((occurrence.local.iCalendarText, set.zone == nil ? nil : occurrence.start))
      if set.zone == nil, occurrence.start != occurrence.local.wallClockSeconds {
        return "floating occurrence \(occurrence) not placed in UTC"
      }
    }
    let sorted = expected.sorted { ($0.utc ?? 0, $0.local) < ($1.utc ?? 0, $1.local) }
    for index in 0..<max(sorted.count, actual.count) {
      let want =
        index < sorted.count ? "\(sorted[index].local) \(sorted[index].utc.map(String.init) ?? "-")" : "nothing"
      let got = index < actual.count ? "\(actual[index].local) \(actual[index].utc.map(String.init) ?? "-")" : "nothing"
      if want != got {
        return "case \(oracle.id) \(oracle.kind) \(oracle.zone ?? "") DTSTART=\(oracle.dtstart) \(oracle.rules) "
          + "RDATE=\(oracle.rdates) EXDATE=\(oracle.exdates): occurrence \(index): dateutil \(want), Kalends \(got)"
      }
    }
    return nil
  }
}
