package import Foundation
import Testing

/// A store served by a real `kalends serve` process on a Unix socket in the store's temporary
/// directory, and apps that call it: copies of curl, which the server identifies by their files.
package final class ServedStore {
  package let store: CLIStore
  package let socket: String
  private let options: [String]
  private let environment: [String: String]
  private var process: Process
  /// The server's standard error (where `--prompt tty` asks the person).
  package private(set) var errors: Pipe
  /// With `--listen`: the TCP address the server bound, `HOST:PORT`.
  package private(set) var tcpAddress: String?
  /// With `typing`: the server's standard input, open for the person's lines.
  package private(set) var terminal: FileHandle?

  /// Starts a server on a new store (or one of `generatedEvents` synthetic events), with
  /// `options` and `stdin` as its standard input.
  package init(_ options: [String] = [], generatedEvents: Int? = nil, stdin: String? = nil) throws {
    store = try generatedEvents.map { try CLIStore(generatedEvents: $0) } ?? CLIStore()
    socket = store.directory.path + "/kalends.sock"
    self.options = options
    environment = [:]
    (process, errors, tcpAddress, terminal) = try Self.start(
      store: store, socket: socket, options: options, stdin: stdin)
  }

  /// Starts a server on `store`, an existing store, with `stdin` as its standard input; with
  /// `typing`, its input stays open (``terminal``) for lines written while it runs.
  /// `environment` is added to the server's.
  package init(
    serving store: CLIStore, _ options: [String] = [], stdin: String? = nil, typing: Bool = false,
    environment: [String: String] = [:]
  ) throws {
    self.store = store
    socket = store.directory.path + "/kalends.sock"
    self.options = options
    self.environment = environment
    (process, errors, tcpAddress, terminal) = try Self.start(
      store: store, socket: socket, options: options, stdin: stdin, typing: typing, environment: environment)
  }

  private static func start(
    store: CLIStore, socket: String, options: [String], stdin: String? = nil, typing: Bool = false,
    environment extra: [String: String] = [:]
  ) throws -> (Process, Pipe, String?, FileHandle?) {
    let arguments = ["serve", "--store", store.directory.storePath, "--socket", socket] + options
    // The server's own runtime directory, where Flatpak's records of sandboxes are looked for.
    let runtime = store.directory.path + "/runtime"
    try FileManager.default.createDirectory(atPath: runtime, withIntermediateDirectories: true)
    let environment = extra.merging(["XDG_RUNTIME_DIR": runtime]) { _, runtime in runtime }
    var terminal: FileHandle?
    let (process, output, errors): (Process, Pipe, Pipe)
    if typing {
      let launched = try CLI.launch(arguments, environment: environment)
      (process, output, errors, terminal) = (launched.0, launched.1, launched.2, launched.3)
    } else {
      (process, output, errors) = try CLI.start(arguments, stdin: stdin, environment: environment)
    }
    var announced = ""
    let listens = options.contains("--listen")
    func ready() -> Bool {
      announced.contains("listening on \(socket)")
        && (!listens || announced.contains("listening on tcp ") || announced.contains("listening on tls "))
    }
    while !ready() {
      let data = output.fileHandleForReading.availableData
      try #require(!data.isEmpty, "the server ended before listening: \(announced)")
      announced += String(decoding: data, as: UTF8.self)
    }
    let tcp = announced.split(separator: "\n").first {
      $0.hasPrefix("listening on tcp ") || $0.hasPrefix("listening on tls ")
    }
    return (process, errors, tcp.map { String($0.split(separator: " ").last!) }, terminal)
  }

  /// The server's process id.
  package var pid: Int32 { process.processIdentifier }

  /// The server's `$XDG_RUNTIME_DIR`, where `flatpak run` would record its sandboxes.
  package var runtimeDirectory: String { store.directory.path + "/runtime" }

  /// Kills the server with SIGKILL, mid-whatever it does.
  package func kill() {
    Foundation.kill(process.processIdentifier, SIGKILL)
    process.waitUntilExit()
  }

  /// Stops the server as SIGTERM does (gracefully) and waits for it.
  package func stop() {
    process.terminate()
    process.waitUntilExit()
  }

  /// Starts the server again on the same store and socket, with `environment` added to the one
  /// it was first given.
  package func restart(environment more: [String: String] = [:]) throws {
    if process.isRunning { kill() }
    (process, errors, tcpAddress, terminal) = try Self.start(
      store: store, socket: socket, options: options, environment: environment.merging(more) { _, new in new })
  }

  deinit {
    process.terminate()
    process.waitUntilExit()
  }

  /// A copy of curl in the store's directory named `name`, with `extra` bytes appended (which
  /// changes its digest and not what it does).
  package func app(_ name: String, appending extra: [UInt8] = []) throws -> String {
    let curl = try Self.curl().path
    let path = store.directory.path + "/" + name
    var bytes = try Data(contentsOf: URL(fileURLWithPath: curl))
    bytes.append(contentsOf: extra)
    try bytes.write(to: URL(fileURLWithPath: path))
    try FileManager.default.setAttributes([.posixPermissions: 0o700], ofItemAtPath: path)
    return path
  }

  /// The system's curl.
  package static func curl() throws -> URL {
    URL(
      fileURLWithPath: try #require(
        ["/usr/bin/curl", "/bin/curl", "/usr/local/bin/curl"].first {
          FileManager.default.isExecutableFile(atPath: $0)
        },
        "curl is needed (tools/setup installs it)"))
  }

  /// Registers `program` as the app `id`, with a usage description for full calendar access.
  package func register(_ id: String, executable program: String) throws {
    try store.object([
      "client", "register", id, "--name", "Agenda", "--usage", "calendars-full=Shows your week.", "--executable",
      program,
    ])
  }

  /// The arguments of curl (`program`) for `method path` with `headers` and a JSON `body`. It
  /// prints the body, then the status, the `ETag` and the `Kalends-Position` on lines of their own.
  package func curl(
    _ method: String, _ path: String, by program: String, headers: [String] = [], body: String? = nil
  ) -> [String] {
    [
      program, "-s", "-X", method, "-w", "\n%{http_code}\n%header{etag}\n%header{kalends-position}", "--unix-socket",
      socket,
    ]
      + headers.flatMap { ["-H", $0] }
      + (body.map { ["-H", "Content-Type: application/json", "--data-binary", $0] } ?? [])
      + ["http://kalends" + path]
  }

  /// Starts `method path` by `program` without waiting for it: for calls that wait (a prompt).
  /// Read its answer with `CLI.finish` and ``parse(_:_:)``.
  package func start(_ method: String, _ path: String, by program: String) throws -> (Process, Pipe, Pipe) {
    let arguments = curl(method, path, by: program)
    return try CLI.start(Array(arguments.dropFirst()), program: URL(fileURLWithPath: arguments[0]))
  }

  /// `GET path` by `program`; the HTTP status and the parsed JSON body.
  package func get(_ path: String, by program: String, prefix: [String] = []) throws -> (status: Int, body: Any?) {
    try call("GET", path, by: program, prefix: prefix)
  }

  /// `method path` by `program`; the HTTP status and the parsed JSON body.
  package func call(
    _ method: String, _ path: String, by program: String, prefix: [String] = [], headers: [String] = [],
    body: String? = nil
  ) throws -> (status: Int, body: Any?) {
    let answer = try exchange(method, path, by: program, prefix: prefix, headers: headers, body: body)
    return (answer.status, answer.body)
  }

  /// `method path` by `program`; the HTTP status, the parsed JSON body, the `ETag` and the
  /// `Kalends-Position` (empty when absent).
  package func exchange(
    _ method: String, _ path: String, by program: String, prefix: [String] = [], headers: [String] = [],
    body: String? = nil
  ) throws -> (status: Int, body: Any?, etag: String, position: String) {
    let arguments = prefix + curl(method, path, by: program, headers: headers, body: body)
    let result = try CLI.run(Array(arguments.dropFirst()), program: URL(fileURLWithPath: arguments[0]))
    return try Self.parseWithTag(result, "\(program) \(method) \(path)")
  }

  /// The status and JSON body of a call started by ``start(_:_:by:)``, once it ends.
  package static func reply(_ call: (Process, Pipe, Pipe), _ label: String) throws -> (status: Int, body: Any?) {
    try parse(CLI.finish(call.0, call.1, call.2), label)
  }

  /// The status and JSON body of a curl run by ``curl(_:_:by:headers:body:)``.
  package static func parse(_ result: CLI.Result, _ label: String) throws -> (status: Int, body: Any?) {
    let answer = try parseWithTag(result, label)
    return (answer.status, answer.body)
  }

  private static func parseWithTag(_ result: CLI.Result, _ label: String) throws -> (
    status: Int, body: Any?, etag: String, position: String
  ) {
    let lines = result.stdout.split(separator: "\n", omittingEmptySubsequences: false)
    try #require(lines.count >= 3, "\(label): \(result.stdout) \(result.stderr)")
    let status = try #require(Int(lines[lines.count - 3]), "\(label): \(result.stdout) \(result.stderr)")
    let body = lines.dropLast(3).joined(separator: "\n")
    return (
      status, body.isEmpty ? nil : try json(body), String(lines[lines.count - 2]), String(lines[lines.count - 1])
    )
  }

  /// The prompts waiting at the server, as `kalends prompts list --format json` prints them.
  package func prompts() throws -> [[String: Any]] {
    try store.objects(["prompts", "list", "--socket", socket])
  }

  /// Waits until `count` prompts wait, and returns them.
  package func waitForPrompts(_ count: Int) throws -> [[String: Any]] {
    try waitForPrompts("\(count) prompts") { $0.count >= count }
  }

  /// Waits until the prompts waiting satisfy `condition` (`what` it waits for), and returns them.
  package func waitForPrompts(_ what: String, until condition: ([[String: Any]]) -> Bool) throws -> [[String: Any]] {
    let deadline = Date().addingTimeInterval(20)
    while Date() < deadline {
      let waiting = try prompts()
      if condition(waiting) { return waiting }
      Thread.sleep(forTimeInterval: 0.05)
    }
    Issue.record("no \(what) within 20 s")
    return try prompts()
  }

  /// The log's records of `kind`, as `log tail --format json` prints them.
  package func records(_ kind: String) throws -> [[String: Any]] {
    let result = try store.run(["log", "tail", "-n", "1000", "--format", "jsonl"])
    try #require(result.status == 0, "\(result.stderr)")
    return try result.stdout.split(separator: "\n").compactMap { line in
      let record = try #require(try json(String(line)) as? [String: Any])
      return record["kind"] as? String == kind ? record : nil
    }
  }
}
