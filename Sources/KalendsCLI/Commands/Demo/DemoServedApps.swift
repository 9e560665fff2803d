import Foundation
import Kalends
import KalendsCommandSupport
import KalendsFormats
import KalendsServer

/// The demo's apps that reach the store through the store server, as real processes: a calendar
/// program over CalDAV on TCP (``DemoDAVApp``), identified by its token; the agenda
/// example (`kalends-agenda`, built beside `kalends`) registered by its binary asks for access, the
/// person answers on the socket, and the agenda prints a week; a copy of it changed by one byte is
/// refused and recorded. The birthdays example (`kalends-birthdays`) is given two contacts at its
/// prompt and prints their birthdays, then shows the contact picker and is handed a third. Their
/// records carry the kernel's evidence, so the audit shows identified callers beside the declared
/// ones of the in-process apps.
struct DemoServedApps {
  /// The agenda's app id.
  static let agendaID = "com.example.agenda"
  /// The birthdays app's id.
  static let birthdaysID = "com.example.birthdays"

  let storePath: String
  let owner: EventStore

  /// The example app `name` beside this `kalends`, if it was built.
  static func example(_ name: String) -> String? {
    let own = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
    let path = own.deletingLastPathComponent().appendingPathComponent(name).path
    return FileManager.default.isExecutableFile(atPath: path) ? path : nil
  }

  /// Plays the scene and prints what happens; says how to build the agenda when it is missing.
  func play() throws {
    print("Apps through the store server (kalends serve; docs/server.md, docs/dav.md):")
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("kalends-demo-\(getpid())").path
    try FileManager.default.createDirectory(
      atPath: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
    defer { try? FileManager.default.removeItem(atPath: directory) }
    let socket = directory + "/kalends.sock"
    let (server, port) = try Self.startServer(store: storePath, socket: socket)
    defer {
      server.terminate()
      server.waitUntilExit()
    }
    if let work = try owner.calendars().first(where: { $0.title == "Work" }) {
      try DemoDAVApp(owner: owner, socket: socket, port: port).play(work: work)
    }
    guard let agenda = Self.example("kalends-agenda") else {
      print("  (the agenda skipped: build it beside kalends — swift build --product kalends-agenda)\n")
      return
    }
    try owner.register(
      Kalends.Client(
        id: Self.agendaID, name: "Agenda", usageDescriptions: [.calendarsFull: "Shows your week."],
        requirement: CodeRequirement(executable: agenda, sha256: try Self.digest(agenda))))

    // The agenda asks; the person (this kalends, on the socket) allows; the agenda prints the week.
    let (process, output) = try Self.start(
      agenda, ["--socket", socket, "--week", "2026-03-30", "--tz", "Europe/Berlin"])
    let prompt = try Self.waitForPrompt(socket)
    let asker = (prompt["executable"] as? String).map { ($0 as NSString).lastPathComponent } ?? "?"
    print("  \(asker) (pid \(prompt["pid"] as? Int ?? 0)) asks for full access: \(prompt["usageDescription"] ?? "")")
    if let id = prompt["id"] as? Int {
      _ = try UnixHTTPClient.request("POST", "/v1/prompts/\(id)?answer=allow", socket: socket)
      print("  the person allows it (kalends prompts answer \(id) allow)")
    }
    let shown = Self.finish(process, output, seconds: 30)
    let lines = shown.split(separator: "\n")
    for line in lines.prefix(6) { print("    " + line) }
    if lines.count > 6 { print("    … \(lines.count - 6) more") }

    // A copy changed by one byte: not the registered app.
    let copy = directory + "/kalends-agenda"
    var bytes = try Data(contentsOf: URL(fileURLWithPath: agenda))
    bytes.append(0)
    try bytes.write(to: URL(fileURLWithPath: copy))
    chmod(copy, 0o700)
    let (refusedProcess, refusedOutput) = try Self.start(copy, ["--socket", socket, "--week", "2026-03-30"])
    let refused = Self.finish(refusedProcess, refusedOutput, seconds: 30)
    print("  a copy of the agenda changed by one byte: \(refused.trimmingCharacters(in: .whitespacesAndNewlines))")
    print("  (recorded as callerUnidentified with its path and digest: kalends log tail --store \(storePath))")
    if let birthdays = Self.example("kalends-birthdays") { try playBirthdays(birthdays, socket: socket) }
    print()
  }

  /// The birthdays app asks for contacts and is given two; then it shows the picker and the
  /// person hands it a third, without access.
  private func playBirthdays(_ birthdays: String, socket: String) throws {
    try owner.register(
      Kalends.Client(
        id: Self.birthdaysID, name: "Birthdays", usageDescriptions: [.contacts: "Shows your friends' birthdays."],
        requirement: CodeRequirement(executable: birthdays, sha256: try Self.digest(birthdays))))
    let contacts = try owner.contactStore.contacts().filter { $0.birthday != nil }
    guard contacts.count >= 3 else { return }
    let (asking, asked) = try Self.start(birthdays, ["--socket", socket])
    let prompt = try Self.waitForPrompt(socket)
    if let id = prompt["id"] as? Int {
      let chosen = [contacts[0], contacts[1]]
      _ = try UnixHTTPClient.request(
        "POST", "/v1/prompts/\(id)?answer=limited" + chosen.map { "&contact=\($0.id)" }.joined(), socket: socket)
      print(
        "  kalends-birthdays asks for contacts; the person gives it two (kalends prompts answer \(id) limited "
          + "--contacts …): \(chosen.map(\.displayName).joined(separator: ", "))")
    }
    for line in Self.finish(asking, asked, seconds: 30).split(separator: "\n").prefix(4) { print("    " + line) }
    let (picking, picked) = try Self.start(birthdays, ["--socket", socket, "--pick"])
    let picker = try Self.waitForPrompt(socket)
    if let id = picker["id"] as? Int {
      _ = try UnixHTTPClient.request("POST", "/v1/prompts/\(id)?answer=pick&contact=\(contacts[2].id)", socket: socket)
      print("  it shows the contact picker; the person picks one (kalends prompts answer \(id) pick --contacts …)")
    }
    for line in Self.finish(picking, picked, seconds: 30).split(separator: "\n").prefix(2) { print("    " + line) }
  }

  static func digest(_ path: String) throws -> [UInt8] {
    guard let digest = FileDigest.sha256(ofFileAt: path) else {
      throw CLIError(message: "cannot read \(path)", status: .storage)
    }
    return digest
  }

  /// Starts `kalends serve` (this executable) on `socket` and on a free TCP port of 127.0.0.1, and
  /// waits until it listens; returns it and that port.
  static func startServer(store: String, socket: String) throws -> (Process, port: Int) {
    let own = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().path
    let (process, output) = try start(
      own,
      ["serve", "--store", store, "--socket", socket, "--listen", "127.0.0.1:0", "--prompt-timeout", "30"],
      errors: true)
    var announced = ""
    let deadline = Date().addingTimeInterval(20)
    while !announced.contains("listening on tcp 127.0.0.1:") || !announced.hasSuffix("\n"), Date() < deadline {
      var entry = pollfd(fd: output.fileHandleForReading.fileDescriptor, events: Int16(POLLIN), revents: 0)
      guard poll(&entry, 1, 200) >= 0 else { break }
      if entry.revents != 0 {
        let data = output.fileHandleForReading.availableData
        if data.isEmpty { break }
        announced += String(decoding: data, as: UTF8.self)
      }
    }
    guard let line = announced.split(separator: "\n").first(where: { $0.contains("listening on tcp 127.0.0.1:") }),
      let port = Int(line.split(separator: ":").last ?? "")
    else {
      process.terminate()
      throw CLIError(message: "the demo's store server did not start: \(announced)", status: .storage)
    }
    return (process, port)
  }

  /// Starts `program` with `arguments`, its standard output piped (and its errors, with `errors`).
  static func start(_ program: String, _ arguments: [String], errors: Bool = false) throws -> (Process, Pipe) {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: program)
    process.arguments = arguments
    let output = Pipe()
    process.standardOutput = output
    process.standardError = errors ? FileHandle.nullDevice : output
    process.standardInput = FileHandle.nullDevice
    try process.run()
    return (process, output)
  }

  /// What `process` printed, once it exits (killed after `seconds`).
  static func finish(_ process: Process, _ output: Pipe, seconds: Double) -> String {
    let deadline = Date().addingTimeInterval(seconds)
    while process.isRunning, Date() < deadline { Thread.sleep(forTimeInterval: 0.02) }
    if process.isRunning { kill(process.processIdentifier, SIGKILL) }
    process.waitUntilExit()
    return String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
  }

  /// The first prompt waiting at the server (within 20 s).
  static func waitForPrompt(_ socket: String) throws -> [String: Any] {
    let deadline = Date().addingTimeInterval(20)
    while Date() < deadline {
      let response = try UnixHTTPClient.request("GET", "/v1/prompts", socket: socket)
      let prompts = (try? JSONSerialization.jsonObject(with: Data(response.body.utf8))) as? [[String: Any]]
      if let first = prompts?.first { return first }
      Thread.sleep(forTimeInterval: 0.05)
    }
    throw CLIError(message: "the demo's app asked nothing within 20 s", status: .storage)
  }
}
