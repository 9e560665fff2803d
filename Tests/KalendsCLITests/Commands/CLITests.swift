import Foundation
import KalendsTestSupport
import Testing

@Suite("Command line")
struct CLITests {
  @Test func helpListsEverySubcommandWithADescription() throws {
    let result = try CLI.run(["--help"])
    #expect(result.status == 0)
    for command in [
      "init", "status", "calendar", "event", "reminder", "events", "import", "export", "client", "access", "audit",
      "demo", "log", "verify", "rebuild",
      "bench",
    ] {
      let line = result.stdout.split(separator: "\n").first {
        $0.trimmingCharacters(in: .whitespaces).hasPrefix(command + " ")
      }
      #expect(line != nil, "\(command) is missing from --help")
      #expect((line?.split(separator: " ").count ?? 0) > 2, "\(command) has no description")
    }
    let log = try CLI.run(["log", "--help"])
    for command in ["tail", "show", "head", "annotate"] { #expect(log.stdout.contains("  \(command) ")) }
    let groups = [
      "calendar": ["create", "list", "update", "remove"], "event": ["add", "show", "list", "update", "remove"],
      "reminder": ["add", "list", "complete", "remove"],
    ]
    for (group, commands) in groups {
      let help = try CLI.run([group, "--help"])
      #expect(help.status == 0)
      for command in commands { #expect(help.stdout.contains("  \(command) "), "\(group) \(command)") }
    }
  }

  @Test func theHarnessIsNotPartOfTheProduct() throws {
    let help = try CLI.run(["--help"])
    let bench = try CLI.run(["bench", "--help"])
    for command in ["torture", "write", "changes"] {
      #expect(!help.stdout.contains("  \(command) "), "kalends --help lists \(command)")
      #expect(!bench.stdout.contains("  \(command) "), "kalends bench --help lists \(command)")
    }
    #expect(try CLI.run(["torture", "writer", "--commands", "1"]).status == 64)
    #expect(try CLI.run(["bench", "write", "--events", "1"]).status == 64)
    let harness = try CLI.run(["--help"], program: CLI.harness)
    for command in ["torture", "write", "changes"] { #expect(harness.stdout.contains("  \(command) ")) }
  }

  @Test func initAnnotateTailShowAndVerifyWorkTogether() throws {
    let directory = TemporaryDirectory()
    let store = ["--store", directory.storePath]
    let created = try CLI.run(["init", "--format", "json"] + store)
    #expect(created.status == 0)
    let createdObject = try #require(try json(created.stdout) as? [String: Any])
    #expect(createdObject["head"] as? Int == 1)
    let single = try CLI.run(["verify", "--log-only"] + store)
    #expect(single.stdout.hasPrefix("ok: 1 record verified"), "one record, in the singular: \(single.stdout)")
    #expect((createdObject["storeId"] as? String)?.count == 36)

    let annotated = try CLI.run(["log", "annotate", "--format", "json"] + store, stdin: "one\ntwo\nthree\n")
    #expect(annotated.status == 0)
    let positions = try #require(try json(annotated.stdout) as? [[String: Any]]).compactMap { $0["position"] as? Int }
    #expect(positions == [2, 3, 4])

    let tail = try CLI.run(["log", "tail", "-n", "2", "--format", "json"] + store)
    let records = try #require(try json(tail.stdout) as? [[String: Any]])
    #expect(records.map { $0["position"] as? Int } == [3, 4])
    #expect((records[1]["payload"] as? [String: Any])?["text"] as? String == "three")
    #expect(records[1]["kind"] as? String == "annotationAdded")
    #expect((records[1]["actor"] as? [String: Any])?["type"] as? String == "person")
    #expect(records[1]["previousHash"] as? String == records[0]["hash"] as? String)

    let lines = try CLI.run(["log", "tail", "--format", "jsonl"] + store).stdout.split(separator: "\n")
    #expect(lines.count == 4)

    let show = try CLI.run(["log", "show", "1"] + store)
    #expect(show.status == 0)
    #expect(show.stdout.contains("storeCreated"))
    #expect(show.stdout.contains(createdObject["storeId"] as? String ?? "?"))

    let head = try CLI.run(["log", "head", "--format", "json"] + store)
    #expect((try json(head.stdout) as? [String: Any])?["headHash"] as? String == records[1]["hash"] as? String)

    let verify = try CLI.run(["verify"] + store)
    #expect(verify.status == 0)
    #expect(verify.stdout.hasPrefix("ok: 4 records verified"))
    #expect(verify.stderr.isEmpty)
  }

  @Test func theStoreComesFromTheEnvironmentWhenNoOptionIsGiven() throws {
    let directory = TemporaryDirectory()
    let environment = ["KALENDS_STORE": directory.storePath]
    #expect(try CLI.run(["init"], environment: environment).status == 0)
    #expect(try CLI.run(["log", "annotate", "via the environment"], environment: environment).status == 0)
    #expect(try CLI.run(["log", "head"], environment: environment).stdout.hasPrefix("2 "))
  }

  @Test func failuresPrintOneErrorLineWithTheExitStatusOfTheirClass() throws {
    let directory = TemporaryDirectory()
    let store = ["--store", directory.storePath]
    let missing = try CLI.run(["log", "tail"] + store)
    #expect(missing.status == 66)
    #expect(missing.stderr.hasPrefix("error: no store at "))
    #expect(missing.stderr.split(separator: "\n").count == 1)
    #expect(missing.stderr.contains(" — "))

    #expect(try CLI.run(["init"] + store).status == 0)
    let again = try CLI.run(["init"] + store)
    #expect(again.status == 67)
    #expect(again.stderr.hasPrefix("error: a store already exists"))

    let noRecord = try CLI.run(["log", "show", "42"] + store)
    #expect(noRecord.status == 66)
    #expect(noRecord.stderr == "error: no record at position 42 — positions run from 1 to 1\n")

    let emptyNote = try CLI.run(["log", "annotate", ""] + store)
    #expect(emptyNote.status == 65)

    let usage = try CLI.run(["log", "tail", "-n", "many"] + store)
    #expect(usage.status == 64)
    #expect(!usage.stderr.contains("Fatal error"))
    #expect(try CLI.run(["log", "head"] + store).stdout.hasPrefix("1 "))
  }

  @Test func verifyReportsTheFirstBrokenPositionAndExits69() throws {
    let directory = TemporaryDirectory()
    let store = ["--store", directory.storePath]
    #expect(try CLI.run(["init"] + store).status == 0)
    #expect(try CLI.run(["log", "annotate", "a", "b", "c", "d"] + store).status == 0)
    try corrupt(position: 3, in: directory.storePath)
    let verify = try CLI.run(["verify"] + store)
    #expect(verify.status == 69)
    #expect(verify.stderr.hasPrefix("error: the log is damaged at position 3 (hashMismatch)"))
    let report = try CLI.run(["verify", "--format", "json"] + store)
    let object = try #require(try json(report.stdout) as? [String: Any])
    #expect(object["intact"] as? Bool == false)
    #expect((object["problem"] as? [String: Any])?["position"] as? Int == 3)
    #expect(object["recordsChecked"] as? Int == 2)
  }

  @Test func twoProcessesAppendingAtOnceLeaveAGapFreeVerifiableChain() throws {
    let directory = TemporaryDirectory()
    let store = ["--store", directory.storePath]
    #expect(try CLI.run(["init"] + store).status == 0)
    let perWriter = 400
    let writers = try ["left", "right"].map { name in
      let notes = (0..<perWriter).map { "\(name) \($0)" }.joined(separator: "\n")
      return try CLI.start(["log", "annotate", "--batch-size", "1"] + store, stdin: notes + "\n")
    }
    let results = writers.map { CLI.finish($0.0, $0.1, $0.2) }
    for result in results { #expect(result.status == 0, "\(result.stderr)") }

    let verify = try CLI.run(["verify", "--format", "json"] + store)
    #expect(verify.status == 0)
    let report = try #require(try json(verify.stdout) as? [String: Any])
    #expect(report["recordsChecked"] as? Int == 1 + 2 * perWriter)

    let all = try CLI.run(["log", "tail", "-n", "1000", "--format", "json"] + store)
    let records = try #require(try json(all.stdout) as? [[String: Any]])
    #expect(records.compactMap { $0["position"] as? Int } == Array(1...(1 + 2 * perWriter)))
    let texts = records.compactMap { ($0["payload"] as? [String: Any])?["text"] as? String }
    for name in ["left", "right"] {
      let mine = texts.filter { $0.hasPrefix(name + " ") }
      #expect(mine == (0..<perWriter).map { "\(name) \($0)" }, "\(name)'s notes are all there, in its order")
    }
    // Both writers really interleaved: the log is not one writer's notes followed by the other's.
    let switches = zip(texts, texts.dropFirst()).filter { $0.0.prefix(4) != $0.1.prefix(4) }.count
    #expect(switches > 1)
  }
}
