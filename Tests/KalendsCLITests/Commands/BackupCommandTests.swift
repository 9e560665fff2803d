import Foundation
import KalendsTestSupport
import Testing

@Suite("Command line: backup and restore")
struct BackupCommandTests {
  @Test func aBackupTakenWhileAWriterRunsIsAVerifiedPrefixOfTheStoreAndRestoresIt() throws {
    let directory = TemporaryDirectory("backup")
    let store = ["--store", directory.storePath]
    #expect(try CLI.run(["init"] + store).status == 0)
    let writer = try CLI.start(["torture", "writer", "--writer", "1", "--seconds", "3"] + store, program: CLI.harness)
    // The backup starts once the writer has committed: a store with writes in flight.
    func head() -> Int {
      guard let result = try? CLI.run(["log", "head", "--format", "json"] + store),
        let object = try? json(result.stdout) as? [String: Any]
      else { return 0 }
      return object["head"] as? Int ?? 0
    }
    let deadline = Date().addingTimeInterval(20)
    while head() < 10, Date() < deadline { Thread.sleep(forTimeInterval: 0.01) }
    let destination = directory.path + "/backup"
    let backup = try CLI.run(["backup", destination, "--format", "json"] + store)
    #expect(backup.status == 0, "\(backup.stderr)")
    let copied = try #require(try json(backup.stdout) as? [String: Any])
    let head = try #require(copied["head"] as? Int)
    #expect(head > 1)
    let written = CLI.finish(writer.0, writer.1, writer.2)
    #expect(written.status == 0, "\(written.stderr)")

    #expect(try CLI.run(["verify", "--store", destination]).status == 0)
    let original = try CLI.run(["log", "show", String(head), "--format", "json"] + store)
    let record = try #require(try json(original.stdout) as? [String: Any])
    #expect(record["hash"] as? String == copied["headHash"] as? String, "the copy is the store up to its head")
    let after = try #require(
      try json(try CLI.run(["log", "head", "--format", "json"] + store).stdout) as? [String: Any])
    #expect((after["head"] as? Int ?? 0) > head, "the writer went on while the copy was made")

    try corrupt(position: 2, in: directory.storePath)
    #expect(try CLI.run(["verify"] + store).status == 69)
    try FileManager.default.removeItem(atPath: directory.storePath)
    try FileManager.default.copyItem(atPath: destination, toPath: directory.storePath)
    #expect(try CLI.run(["verify"] + store).status == 0)
    let restored = try #require(
      try json(try CLI.run(["log", "head", "--format", "json"] + store).stdout) as? [String: Any])
    #expect(restored["head"] as? Int == head)
  }

  @Test func aBackupIntoADirectoryThatIsNotEmptyIsRefused() throws {
    let store = try CLIStore()
    let destination = store.directory.path + "/taken"
    try FileManager.default.createDirectory(atPath: destination, withIntermediateDirectories: true)
    _ = FileManager.default.createFile(atPath: destination + "/data.mdb", contents: Data("mine".utf8))
    let refused = try store.run(["backup", destination])
    #expect(refused.status == 67)
    #expect(refused.stderr.hasPrefix("error: ") && refused.stderr.contains("not an empty directory"))
    #expect(FileManager.default.contents(atPath: destination + "/data.mdb") == Data("mine".utf8))
  }
}
