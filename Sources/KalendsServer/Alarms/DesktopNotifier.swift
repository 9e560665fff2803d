import Foundation
import Kalends

/// How `kalends serve` tells the person something — an alarm as it fires, an app's prompt as it
/// opens: the desktop's notification service (`org.freedesktop.Notifications`) called directly on
/// the session bus (``SessionBus``); else a program run with the notification's summary and body as
/// its two last arguments — `notify-send`, after `--` so that a title an app wrote is never read as
/// one of its options, unless the person names another; or nothing but the server's log.
package struct DesktopNotifier: Sendable {
  /// The program and its first arguments; empty with no ``bus``: alarms are only logged.
  package let command: [String]
  /// Whether the body is read as the notification server's markup (the Desktop Notifications
  /// Specification's), so that `&`, `<` and `>` of a title an app wrote are escaped rather than
  /// interpreted.
  package let bodyIsMarkup: Bool
  /// The session bus called instead of a program.
  let bus: SessionBus.Endpoint?

  /// The session bus of `DBUS_SESSION_BUS_ADDRESS` when it names a Unix socket; else
  /// `notify-send --app-name=Kalends` when it is on `PATH`; else none.
  package static func desktop(
    environment: [String: String] = ProcessInfo.processInfo.environment
  ) -> DesktopNotifier {
    if let address = environment["DBUS_SESSION_BUS_ADDRESS"], let endpoint = SessionBus.endpoint(of: address) {
      return DesktopNotifier(bus: endpoint)
    }
    guard let program = find("notify-send", path: environment["PATH"]) else {
      return DesktopNotifier(command: [], bodyIsMarkup: false)
    }
    return DesktopNotifier(command: [program, "--app-name=Kalends", "--"], bodyIsMarkup: true)
  }

  /// Where notifications go, in words for the server's start: `the session bus`, the program, or
  /// `nowhere but this log`.
  package var destination: String {
    if bus != nil { return "the desktop's notification service, on the session bus" }
    return command.first.map { URL(fileURLWithPath: $0).lastPathComponent } ?? "nowhere but this log"
  }

  /// The person's program (a path, or a name looked up on `PATH`), given the summary and the body
  /// as they are.
  package static func program(_ name: String, path: String? = ProcessInfo.processInfo.environment["PATH"]) throws
    -> DesktopNotifier
  {
    guard let program = find(name, path: path) else {
      throw ServerError.invalidInput("--notify: no program \(name) — give a path or a program on PATH, or none")
    }
    return DesktopNotifier(command: [program], bodyIsMarkup: false)
  }

  package init(command: [String], bodyIsMarkup: Bool) {
    self.command = command
    self.bodyIsMarkup = bodyIsMarkup
    bus = nil
  }

  /// Notifications through the session bus at `bus`.
  init(bus: SessionBus.Endpoint) {
    command = []
    bodyIsMarkup = true
    self.bus = bus
  }

  /// Shows `summary` and `body` on a thread of its own and returns at once; `failed` is told why,
  /// when it failed. A program that does not return (a notification service that hangs, a
  /// `--wait`) holds up neither the next notification nor the server's tasks, and is ended after
  /// `timeout`.
  package func post(
    summary: String, body: String, timeout: Duration = .seconds(10), failed: @escaping @Sendable (String) -> Void
  ) {
    guard !command.isEmpty || bus != nil else { return }
    Thread.detachNewThread {
      if let failure = show(summary: summary, body: body, timeout: timeout) { failed(failure) }
    }
  }

  /// Calls the notification service on the session bus, or runs the program, with `summary` and
  /// `body`, and waits for it (at most `timeout`, then the call or the program is ended); returns
  /// why it failed, or `nil`. It blocks its thread: ``post(summary:body:timeout:failed:)`` runs it
  /// on one of its own.
  package func show(summary: String, body: String, timeout: Duration = .seconds(10)) -> String? {
    if let bus {
      do {
        try SessionBus(endpoint: bus).notify(summary: summary, body: Self.escapedMarkup(body), timeout: timeout)
        return nil
      } catch {
        return error.description
      }
    }
    guard let program = command.first else { return nil }
    let process = Process()
    process.executableURL = URL(fileURLWithPath: program)
    process.arguments = Array(command.dropFirst()) + [summary, bodyIsMarkup ? Self.escapedMarkup(body) : body]
    process.standardInput = FileHandle.nullDevice
    process.standardOutput = FileHandle.nullDevice
    process.standardError = FileHandle.nullDevice
    do {
      try process.run()
    } catch {
      return "\(program) could not be started: \(error)"
    }
    let deadline = ContinuousClock.now + timeout
    while process.isRunning && ContinuousClock.now < deadline { usleep(10_000) }
    if process.isRunning {
      process.terminate()
      return "\(program) did not finish within \(timeout)"
    }
    return process.terminationStatus == 0 ? nil : "\(program) exited with status \(process.terminationStatus)"
  }

  /// `text` with the three characters the Desktop Notifications markup reads escaped.
  static func escapedMarkup(_ text: String) -> String {
    text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
      .replacingOccurrences(of: ">", with: "&gt;")
  }

  /// The executable `name` names: itself when it holds a `/`, else the first on `path`.
  static func find(_ name: String, path: String?) -> String? {
    if name.contains("/") { return FileManager.default.isExecutableFile(atPath: name) ? name : nil }
    for directory in (path ?? "/usr/bin:/bin").split(separator: ":") {
      let candidate = "\(directory)/\(name)"
      if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
    }
    return nil
  }
}
