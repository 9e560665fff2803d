import KalendsCommandSupport
import KalendsFormats

/// The verdict of `kalends-harness torture check`: counts, and every broken promise found.
struct TortureCheckSummary {
  var commands = 0
  var acknowledged = 0
  var acknowledgedRecords = 0
  var pending = 0
  var pendingRecordsFound = 0
  var lost = 0
  var partial = 0
  var unattributed = 0
  var conflictsReported = 0
  var counter: Int?
  var writerFailures: [String] = []
  private var findings: [String] = []

  /// Everything that is wrong, most specific first.
  var problems: [String] {
    var all = findings
    if unattributed > 0 { all.append("\(unattributed) records belong to no command") }
    all += writerFailures.map { "a writer failed: \($0)" }
    return all
  }

  /// Checks the commands whose records carry `match` against the positions where it was found.
  mutating func add(match: String, commands group: [TortureJournal.Command], found positions: [UInt64]) {
    let present = Set(positions)
    commands += group.count
    var expected = 0
    var unacknowledged: [Int] = []
    var missingFromRanges = 0
    for command in group {
      guard let range = command.acknowledged else {
        pending += 1
        unacknowledged.append(command.records)
        continue
      }
      acknowledged += 1
      acknowledgedRecords += command.records
      expected += command.records
      guard range.lowerBound > 0 else { continue }
      let missing = range.filter { !present.contains($0) }
      if !missing.isEmpty {
        missingFromRanges += missing.count
        findings.append("\(command.token) (\(command.kind)) was acknowledged at \(range) but \(missing) are not its")
      }
    }
    // A missing record shows in its command's range and in the count: count it once.
    lost += max(missingFromRanges, expected - positions.count)
    if positions.count < expected {
      findings.append("\(match): \(positions.count) records found, \(expected) acknowledged")
      return
    }
    let extra = positions.count - expected
    pendingRecordsFound += extra
    if extra > 0, !Self.subsetSums(unacknowledged).contains(extra) {
      partial += 1
      findings.append(
        "\(match): \(extra) records beyond the acknowledged ones, not whole commands of \(unacknowledged)")
    }
    if group.count == 1, let low = positions.min(), let high = positions.max(), Int(high - low) + 1 != positions.count {
      partial += 1
      findings.append("\(match): its records are not contiguous (\(positions.sorted()))")
    }
  }

  /// Checks that the counter's title `counter N` counts every acknowledged increment, plus at most
  /// those that were cut short.
  mutating func checkCounter(_ title: String, commands: [TortureJournal.Command]) {
    let acknowledged = commands.filter { $0.acknowledged != nil }.count
    let value = Int(title.dropFirst("counter ".count))
    counter = value
    guard let value, value >= acknowledged, value <= commands.count else {
      findings.append(
        "the counter reads \"\(title)\" after \(acknowledged) acknowledged of \(commands.count) increments")
      return
    }
  }

  var json: JSONValue {
    .object([
      ("ok", .bool(problems.isEmpty)),
      ("commands", .number(Double(commands))),
      ("acknowledged", .number(Double(acknowledged))),
      ("acknowledgedRecords", .number(Double(acknowledgedRecords))),
      ("pending", .number(Double(pending))),
      ("pendingRecordsFound", .number(Double(pendingRecordsFound))),
      ("lost", .number(Double(lost))),
      ("partial", .number(Double(partial))),
      ("unattributed", .number(Double(unattributed))),
      ("conflictsReported", .number(Double(conflictsReported))),
      ("counter", counter.map { .number(Double($0)) } ?? .null),
      ("problems", .array(problems.map { .string($0) })),
    ])
  }

  private static func subsetSums(_ values: [Int]) -> Set<Int> {
    var sums: Set<Int> = [0]
    for value in values.prefix(16) { sums.formUnion(sums.map { $0 + value }) }
    return sums
  }
}
