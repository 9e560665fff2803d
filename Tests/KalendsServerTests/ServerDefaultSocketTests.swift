import Foundation
import KalendsTestSupport
import Testing

/// The person's default store is served at one well-known socket that apps and `kalends prompts`
/// find without being told, and without opening the store; another store at its id's socket.
@Suite("Server: the default store's well-known socket")
struct ServerDefaultSocketTests {
  /// Starts `kalends serve` with `arguments` in `environment` and waits for its `listening on` line.
  static func serve(_ arguments: [String], _ environment: [String: String]) throws -> (Process, String) {
    let (process, output, _) = try CLI.start(["serve", "--notify", "none"] + arguments, environment: environment)
    var announced = ""
    while !announced.contains("\n") {
      let data = output.fileHandleForReading.availableData
      try #require(!data.isEmpty, "the server ended before listening: \(announced)")
      announced += String(decoding: data, as: UTF8.self)
    }
    return (process, announced)
  }

  @Test func theDefaultStoreListensWhereAppsAndPromptsLook() throws {
    let directory = TemporaryDirectory("default-socket")
    let runtime = directory.path + "/run"
    try FileManager.default.createDirectory(atPath: runtime, withIntermediateDirectories: true)
    let environment = ["XDG_DATA_HOME": directory.path + "/data", "XDG_RUNTIME_DIR": runtime, "HOME": directory.path]
    #expect(try CLI.run(["init"], environment: environment).status == 0)
    let (server, announced) = try Self.serve([], environment)
    defer {
      server.terminate()
      server.waitUntilExit()
    }
    let wellKnown = runtime + "/kalends/kalends.sock"
    #expect(announced.contains("listening on \(wellKnown)"), "\(announced)")
    // `kalends prompts` finds it with no --socket and without the store: moved away meanwhile (a
    // server's files may be out of the person's reach, as under a service manager).
    let data = directory.path + "/data/kalends/default"
    try FileManager.default.moveItem(atPath: data, toPath: data + ".away")
    let prompts = try CLI.run(["prompts", "--format", "json"], environment: environment)
    try FileManager.default.moveItem(atPath: data + ".away", toPath: data)
    #expect(prompts.status == 0 && prompts.stdout.hasPrefix("["), "\(prompts.stderr)")
    // An app built on KalendsClient finds it too: the agenda example, not registered, is refused
    // there (a 401 is the server's answer, not a failure to connect).
    let agenda = try CLI.run(["--week", "2026-03-04"], environment: environment, program: AgendaAppTests.agenda)
    #expect(agenda.stdout.contains("401 caller not identified"), "\(agenda.stdout) \(agenda.stderr)")

    // Another store is served at its id's socket.
    let other = directory.path + "/other"
    #expect(try CLI.run(["init", "--store", other], environment: environment).status == 0)
    let (second, otherAnnounced) = try Self.serve(["--store", other], environment)
    defer {
      second.terminate()
      second.waitUntilExit()
    }
    #expect(!otherAnnounced.contains("kalends.sock") && otherAnnounced.contains(runtime + "/kalends/"))
    let otherPrompts = try CLI.run(["prompts", "--store", other], environment: environment)
    #expect(otherPrompts.status == 0, "\(otherPrompts.stderr)")
  }
}
