import Foundation
import KalendsTestSupport
import Testing

/// An interpreted app (a Python script: its process is the interpreter) is identified by a token
/// it presents over the Unix socket, as docs/server.md shows; two apps are never registered on one
/// executable.
@Suite("Server: interpreted apps by a token over the socket")
struct ServerTokenSocketTests {
  /// The Python program of docs/server.md, as written there.
  static func documentedProgram() throws -> String {
    let docs = Repository.root.appendingPathComponent("docs/server.md")
    let text = try String(contentsOf: docs, encoding: .utf8)
    let section = try #require(text.range(of: "**Interpreted apps**"))
    let start = try #require(text.range(of: "```python\n", range: section.upperBound..<text.endIndex))
    let end = try #require(text.range(of: "```", range: start.upperBound..<text.endIndex))
    return String(text[start.upperBound..<end.lowerBound])
  }

  @Test func theDocumentedPythonAppReadsItsCalendarsWithATokenOverTheSocket() throws {
    let served = try ServedStore()
    _ = try served.store.calendar("Work")
    _ = try served.store.calendar("Health")
    try served.store.object([
      "client", "register", "com.example.planner", "--name", "Planner", "--usage", "calendars-full=Shows your week.",
    ])
    try served.store.object(["access", "set", "com.example.planner", "--service", "calendars", "--status", "full"])
    // The person's home and runtime directory as the program finds them.
    let home = served.store.directory.path + "/home"
    let runtime = served.store.directory.path + "/run"
    try FileManager.default.createDirectory(atPath: runtime + "/kalends", withIntermediateDirectories: true)
    try FileManager.default.createSymbolicLink(
      atPath: runtime + "/kalends/kalends.sock", withDestinationPath: served.socket)
    try FileManager.default.createDirectory(atPath: home + "/.config/planner", withIntermediateDirectories: true)
    let made = try served.store.object([
      "client", "token", "create", "com.example.planner", "--label", "script", "--secret-file",
      home + "/.config/planner/token",
    ])
    let program = try Self.documentedProgram()
    let environment = ["HOME": home, "XDG_RUNTIME_DIR": runtime]
    let ran = try CLI.run(
      ["python3", "-c", program], environment: environment, program: URL(fileURLWithPath: "/usr/bin/env"))
    #expect(ran.status == 0, "\(ran.stderr)")
    #expect(Set(ran.stdout.split(separator: "\n").map(String.init)) == ["Work", "Health"], "\(ran.stdout)")

    // Revoked, or never made: refused, recorded, nothing answered.
    let tokenID = try #require(made["id"] as? String)
    try served.store.object(["client", "token", "revoke", "com.example.planner", tokenID])
    let refused = try CLI.run(
      ["python3", "-c", program], environment: environment, program: URL(fileURLWithPath: "/usr/bin/env"))
    #expect(refused.status != 0 && !refused.stdout.contains("Work"), "\(refused.stdout)")
    // The refusal holds the token and the kernel's word about the process that presented it.
    let unidentified = try served.records("callerUnidentified").compactMap { $0["payload"] as? [String: Any] }
    let refusal = try #require(unidentified.first { $0["tokenId"] as? String == tokenID }, "\(unidentified)")
    #expect(refusal["uid"] as? Int == Int(getuid()) && refusal["pid"] as? Int != nil, "\(refusal)")
  }

  @Test func aSecondAppOnOneExecutableIsRefusedNamingTheFirst() throws {
    let store = try CLIStore()
    let program = "/usr/bin/true"
    let first = try store.run([
      "client", "register", "com.example.first", "--name", "First", "--executable", program,
    ])
    #expect(first.status == 0, "\(first.stderr)")
    let second = try store.run([
      "client", "register", "com.example.second", "--name", "Second", "--executable", program,
    ])
    #expect(second.status == 67 && second.stderr.contains("com.example.first"), "\(second.stderr)")
    let listed = try store.objects(["client", "list"]).compactMap { $0["id"] as? String }
    #expect(!listed.contains("com.example.second"), "\(listed)")
    // The first may be registered again on it (its own update).
    let again = try store.run([
      "client", "register", "com.example.first", "--name", "First", "--executable", program,
    ])
    #expect(again.status == 0, "\(again.stderr)")
  }
}
