import Foundation
import KalendsTestSupport
import Testing

/// `kalends-harness torture check` must catch what it is there to catch, or the crash harness proves nothing.
@Suite("Command line: torture check")
struct TortureCheckTests {
  /// A store written by one writer that ran to completion, and its journal.
  final class Written {
    let store = TemporaryDirectory("torture")
    let journal: String
    let lines: [String]

    init() throws {
      let created = try CLI.run(["init", "--store", store.storePath])
      try #require(created.status == 0, "\(created.stderr)")
      let writer = try CLI.run(
        ["torture", "writer", "--store", store.storePath, "--writer", "1", "--commands", "30"], program: CLI.harness)
      try #require(writer.status == 0, "\(writer.stderr)")
      lines = writer.stdout.split(separator: "\n").map(String.init)
      journal = store.path + "/journal"
    }

    func check(_ lines: [String]) throws -> CLI.Result {
      try lines.joined(separator: "\n").write(toFile: journal, atomically: true, encoding: .utf8)
      return try CLI.run(
        ["torture", "check", "--store", store.storePath, "--journal", journal], program: CLI.harness)
    }
  }

  @Test func aStoreHoldingEveryAcknowledgedCommandPasses() throws {
    let written = try Written()
    let result = try written.check(written.lines)
    #expect(result.status == 0, "\(result.stderr)")
    let summary = try #require(try json(result.stdout) as? [String: Any])
    #expect(summary["lost"] as? Int == 0)
    #expect((summary["acknowledgedRecords"] as? Int ?? 0) > 30)
  }

  @Test func anAcknowledgedCommandMissingFromTheLogIsLost() throws {
    let written = try Written()
    let result = try written.check(written.lines + ["begin ~w9t0c1~ event 1 ~w9t0c1~", "ack ~w9t0c1~ 900 900"])
    #expect(result.status == 69)
    let summary = try #require(try json(result.stdout) as? [String: Any])
    #expect(summary["lost"] as? Int == 1)
  }

  @Test func aCommandFoundInPartIsReported() throws {
    let written = try Written()
    // Claim the first batch had one record more and was never acknowledged: what the log holds of
    // it is then neither nothing nor the whole command.
    let begin = try #require(written.lines.firstIndex { $0.contains(" batch ") })
    var fields = written.lines[begin].split(separator: " ").map(String.init)
    let token = fields[1]
    fields[3] = String(Int(fields[3])! + 1)
    var lines = written.lines
    lines[begin] = fields.joined(separator: " ")
    lines.removeAll { $0.hasPrefix("ack \(token) ") }
    let result = try written.check(lines)
    #expect(result.status == 69)
    let summary = try #require(try json(result.stdout) as? [String: Any])
    #expect(summary["partial"] as? Int == 1)
  }

  @Test func aRecordThatNoCommandWroteIsReported() throws {
    let written = try Written()
    let note = try CLI.run(["log", "annotate", "not from the writer", "--store", written.store.storePath])
    #expect(note.status == 0)
    let result = try written.check(written.lines)
    #expect(result.status == 69)
    let summary = try #require(try json(result.stdout) as? [String: Any])
    #expect(summary["unattributed"] as? Int == 1)
  }
}
