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

  /// The dynamic loader runs any program it is given (`ld-linux-x86-64.so.2 /path/to/program`), and
  /// the kernel then names the loader as the running program: it is an interpreter too.
  @Test func theDynamicLoaderIsAnInterpreter() throws {
    let store = try CLIStore()
    let loaders = ["/lib64/ld-linux-x86-64.so.2", "/lib/ld-linux-aarch64.so.1", "/lib/ld-musl-x86_64.so.1"]
    let loader = try #require(loaders.first { FileManager.default.fileExists(atPath: $0) }, "no dynamic loader here")
    let refused = try register(store, loader)
    #expect(refused.status == 65 && refused.stderr.contains("is an interpreter"), "\(refused.stderr)")
  }
}
