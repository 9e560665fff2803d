import Foundation
import KalendsTestSupport
import Testing

/// `kalends serve` started by socket activation: a small service manager (in Python, as systemd
/// does it with `ListenStream=` and `Accept=no`) binds and listens on the socket, starts the server
/// with the socket as descriptor 3 and `LISTEN_PID`/`LISTEN_FDS` set, and starts it again when a
/// connection arrives after it stopped.
@Suite("The store server serves a socket handed over by socket activation")
struct ServerActivationTests {
  /// argv: socket path, its mode (octal), how many times to start the server, the server's argv.
  /// Prints `server PID` for each start and `exit STATUS` when it ends.
  static let manager = """
    import os, select, socket, sys
    path, mode, starts, argv = sys.argv[1], int(sys.argv[2], 8), int(sys.argv[3]), sys.argv[4:]
    listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    listener.bind(path); os.chmod(path, mode); listener.listen(64)
    for start in range(starts):
        if start: select.select([listener], [], [])
        pid = os.fork()
        if pid == 0:
            os.dup2(listener.fileno(), 3); os.set_inheritable(3, True)
            os.environ.update(LISTEN_PID=str(os.getpid()), LISTEN_FDS="1")
            os.execv(argv[0], argv)
        print(f"server {pid}", flush=True)
        _, status = os.waitpid(pid, 0)
        print(f"exit {os.waitstatus_to_exitcode(status)}", flush=True)
    """

  /// The service manager's process and what it has printed so far.
  final class Manager {
    let process: Process
    let output: Pipe
    let errors: Pipe
    var printed = ""

    init(socket: String, mode: String, starts: Int, store: CLIStore, extra: [String] = []) throws {
      (process, output, errors) = try CLI.start(
        [
          "python3", "-c", ServerActivationTests.manager, socket, mode, String(starts), CLI.executable.path, "serve",
          "--store", store.directory.storePath,
        ] + extra, program: URL(fileURLWithPath: "/usr/bin/env"))
    }

    /// Reads until the output has `count` lines starting with `prefix`; returns them.
    func wait(for prefix: String, count: Int = 1) throws -> [String] {
      func matching() -> [String] { printed.split(separator: "\n").map(String.init).filter { $0.hasPrefix(prefix) } }
      while matching().count < count {
        let data = output.fileHandleForReading.availableData
        try #require(!data.isEmpty, "ended before \(count) × \(prefix): \(printed)")
        printed += String(decoding: data, as: UTF8.self)
      }
      return matching()
    }

    /// The pid of the server's `start`th start (from 1).
    func server(_ start: Int) throws -> pid_t {
      try #require(pid_t(try wait(for: "server ", count: start)[start - 1].dropFirst("server ".count)))
    }

    deinit {
      if process.isRunning {
        for line in printed.split(separator: "\n") where line.hasPrefix("server ") {
          if let pid = pid_t(line.dropFirst("server ".count)) { kill(pid, SIGKILL) }
        }
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
      }
    }
  }

  @Test func appsAreIdentifiedOnTheHandedSocketWhichOutlivesTheServer() throws {
    let store = try CLIStore()
    let socket = store.directory.path + "/kalends.sock"
    let agenda = store.directory.path + "/agenda"
    let other = store.directory.path + "/other"
    try FileManager.default.copyItem(atPath: try ServedStore.curl().path, toPath: agenda)
    var bytes = try Data(contentsOf: URL(fileURLWithPath: agenda))
    bytes.append(0)
    try bytes.write(to: URL(fileURLWithPath: other))
    try FileManager.default.setAttributes([.posixPermissions: 0o700], ofItemAtPath: other)
    try store.object([
      "client", "register", "com.example.agenda", "--name", "Agenda", "--usage", "calendars-full=Week.",
      "--executable", agenda,
    ])
    let manager = try Manager(socket: socket, mode: "600", starts: 2, store: store)
    _ = try manager.wait(for: "listening on \(socket) (socket activation)")
    let first = try manager.server(1)

    func whoami(by program: String) throws -> (status: Int, body: String) {
      let result = try CLI.run(
        ["-s", "-w", "\n%{http_code}", "--unix-socket", socket, "http://kalends/v1/whoami"],
        program: URL(fileURLWithPath: program))
      let lines = result.stdout.split(separator: "\n")
      return (Int(lines.last ?? "") ?? 0, lines.dropLast().joined(separator: "\n"))
    }
    // The kernel's credentials of a peer on the handed socket identify the app by its file…
    let identified = try whoami(by: agenda)
    #expect(identified.status == 200, "\(identified.body)")
    let identity = try #require(try json(identified.body) as? [String: Any])
    #expect(identity["client"] as? String == "com.example.agenda")
    #expect(identity["executable"] as? String == agenda)
    // The answer is dated, as an origin server with a clock dates every response (RFC 9110).
    let headers = try CLI.run(
      ["-s", "-D", "-", "-o", "/dev/null", "--unix-socket", socket, "http://kalends/v1/whoami"],
      program: URL(fileURLWithPath: agenda)
    ).stdout.lowercased()
    #expect(headers.contains("\r\ndate: ") && headers.contains(" gmt\r\n"), "\(headers)")
    // …and a program that is not the registered file is refused and recorded.
    #expect(try whoami(by: other).status == 401)
    // The person's channel works there too.
    #expect(try CLI.run(["prompts", "list", "--socket", socket]).status == 0)

    // Stopped gracefully, the server leaves the socket to the manager, which still listens…
    #expect(kill(first, SIGTERM) == 0)
    _ = try manager.wait(for: "exit 0")
    let kind = try? FileManager.default.attributesOfItem(atPath: socket)[.type] as? FileAttributeType
    #expect(kind == .typeSocket, "the socket file stays")
    // …so a request made while no server runs waits in the socket and the next server answers it.
    let queued = try whoami(by: agenda)
    #expect(queued.status == 200, "\(queued.body)")
    _ = try manager.wait(for: "listening on \(socket) (socket activation)", count: 2)
    #expect(kill(try manager.server(2), SIGTERM) == 0)
    _ = try manager.wait(for: "exit 0", count: 2)
    manager.process.waitUntilExit()

    let refusals = try store.run(["log", "tail", "-n", "100", "--format", "jsonl"]).stdout
      .split(separator: "\n").compactMap { try json(String($0)) as? [String: Any] }
      .filter { $0["kind"] as? String == "callerUnidentified" }
    #expect(refusals.count == 1)
    #expect((refusals.first?["payload"] as? [String: Any])?["executable"] as? String == other)
  }

  @Test(
    "what the server would not have made is refused at start",
    arguments: [
      // A socket others may open (systemd's default SocketMode); a --socket other than the one handed.
      ("666", false, "SocketMode=0600"), ("600", true, "not the socket the service manager handed over"),
    ])
  func refusedAtStart(mode: String, namingAnotherSocket: Bool, message: String) throws {
    let store = try CLIStore()
    let socket = store.directory.path + "/kalends.sock"
    let extra = namingAnotherSocket ? ["--socket", store.directory.path + "/other.sock"] : []
    let manager = try Manager(socket: socket, mode: mode, starts: 1, store: store, extra: extra)
    _ = try manager.wait(for: "exit ")
    let result = CLI.finish(manager.process, manager.output, manager.errors)
    #expect(manager.printed.contains("exit 64"), "\(manager.printed)")
    #expect(result.stderr.contains(message), "\(result.stderr)")
  }

  @Test func anotherProcesssActivationIsNotTakenForOurs() throws {
    let store = try CLIStore()
    let socket = store.directory.path + "/kalends.sock"
    // LISTEN_PID names another process (pid 1): descriptor 3 is not ours, so the server binds its own.
    let (process, output, _) = try CLI.start(
      ["serve", "--store", store.directory.storePath, "--socket", socket],
      environment: ["LISTEN_PID": "1", "LISTEN_FDS": "1"])
    defer {
      kill(process.processIdentifier, SIGKILL)
      process.waitUntilExit()
    }
    let printed = ServerChangeTests.read(output.fileHandleForReading, until: "\n")
    #expect(printed == "listening on \(socket)\n")
  }
}
