import Foundation
import KalendsTestSupport
import Testing

/// What `client register --executable` stores is what the server can match, and nothing that
/// would make every script on the machine the app.
@Suite("Registering an app's executable: links resolved, scripts and interpreters refused")
struct ClientRegisterExecutableTests {
  func register(_ store: CLIStore, _ path: String, _ extra: [String] = []) throws -> CLI.Result {
    try store.run(
      ["client", "register", "com.example.app", "--name", "App", "--executable", path, "--format", "json"] + extra)
  }

  @Test func aLinkIsResolvedToTheFileTheKernelNames() throws {
    let store = try CLIStore()
    let file = store.directory.path + "/agenda"
    try FileManager.default.copyItem(atPath: try ServedStore.curl().path, toPath: file)
    let link = store.directory.path + "/agenda-link"
    try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: file)
    let result = try register(store, link)
    #expect(result.status == 0, "\(result.stderr)")
    #expect(result.stderr.contains("is a link to \(file)"))
    let client = try #require(try json(result.stdout) as? [String: Any])
    #expect((client["requirement"] as? [String: Any])?["executable"] as? String == file, "\(client)")
  }

  @Test func aScriptIsRefusedForItWouldNeverMatch() throws {
    let store = try CLIStore()
    let script = store.directory.path + "/agenda.py"
    try "#!/usr/bin/env python3\nprint('hi')\n".write(toFile: script, atomically: true, encoding: .utf8)
    let head = try store.head()
    let result = try register(store, script)
    #expect(result.status == 65)
    #expect(result.stderr.contains("is a script"), "\(result.stderr)")
    #expect(try store.head() == head, "nothing is written")
  }

  @Test func anInterpreterIsRefusedUnlessMeant() throws {
    let store = try CLIStore()
    // The shell, which every system has (dash on Debian, behind /bin/sh).
    let shell = URL(fileURLWithPath: "/bin/sh").resolvingSymlinksInPath().path
    let refused = try register(store, "/bin/sh")
    #expect(refused.status == 65)
    #expect(refused.stderr.contains("is an interpreter"), "\(refused.stderr)")
    let allowed = try register(store, "/bin/sh", ["--allow-interpreter"])
    #expect(allowed.status == 0, "\(allowed.stderr)")
    let client = try #require(try json(allowed.stdout) as? [String: Any])
    #expect((client["requirement"] as? [String: Any])?["executable"] as? String == shell)
    #expect(try register(store, "relative/path").status == 65)
  }
}
