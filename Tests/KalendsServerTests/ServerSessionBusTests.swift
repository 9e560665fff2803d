import Foundation
import KalendsTestSupport
import Testing

/// Alarms shown through the desktop's notification service called directly on the session bus —
/// no `notify-send` on the machine — against a real `dbus-daemon` and a notification service
/// written on PyPI's jeepney (Tests/Oracles/notification_receiver.py), not on Kalends' D-Bus code.
@Suite("Server: alarms through the session bus")
struct ServerSessionBusTests {
  static let receiver = Repository.root
    .appendingPathComponent("Tests/Oracles/notification_receiver.py").path

  /// A session bus of its own in `directory`: the daemon and its address.
  static func bus(in directory: String) throws -> (Process, String) {
    let (daemon, output, _) = try CLI.start(
      ["--session", "--nofork", "--print-address", "--address=unix:path=\(directory)/bus"],
      program: URL(fileURLWithPath: "/usr/bin/dbus-daemon"))
    let address = ServerChangeTests.read(output.fileHandleForReading, until: "\n")
      .trimmingCharacters(in: .whitespacesAndNewlines)
    try #require(address.hasPrefix("unix:path="), "dbus-daemon printed \(address)")
    return (daemon, address)
  }

  @Test func withoutNotifySendAnAlarmIsShownOnTheSessionBusAndItsTitleStaysText() throws {
    let store = try CLIStore()
    let (daemon, address) = try Self.bus(in: store.directory.path)
    defer {
      // SIGKILL: a child started by the test process inherits its blocked signals, SIGTERM among them.
      kill(daemon.processIdentifier, SIGKILL)
      daemon.waitUntilExit()
    }
    let (receiver, shown, _) = try CLI.start(
      ["python3", Self.receiver], environment: ["DBUS_SESSION_BUS_ADDRESS": address],
      program: URL(fileURLWithPath: "/usr/bin/env"))
    defer {
      // SIGKILL: a child started by the test process inherits its blocked signals, SIGTERM among them.
      kill(receiver.processIdentifier, SIGKILL)
      receiver.waitUntilExit()
    }
    #expect(ServerChangeTests.read(shown.fileHandleForReading, until: "ready\n").contains("ready"))
    // No notify-send anywhere on the server's PATH.
    let empty = store.directory.path + "/empty"
    try FileManager.default.createDirectory(atPath: empty, withIntermediateDirectories: true)
    _ = try store.calendar("Work")
    let served = try ServedStore(serving: store, environment: ["PATH": empty, "DBUS_SESSION_BUS_ADDRESS": address])
    defer { served.stop() }
    let soon = ServerAlarmTests.firing(in: 2)
    let title = "--app-name=Evil <b>bold</b> & co"
    _ = try store.object([
      "event", "add", "--calendar", "Work", "--title=\(title)", "--start", soon.start, "--alarm", soon.alarm,
      "--location", "Room <1> & 2",
    ])
    let line = ServerChangeTests.read(shown.fileHandleForReading, until: "}\n")
    let call = try #require(try json(line) as? [String: Any], "the service heard \(line)")
    #expect(call["app"] as? String == "Kalends")
    #expect(call["signature"] as? String == "susssasa{sv}i")
    // The title is the notification's text, whole: never an option, never markup in the body.
    #expect((call["summary"] as? String)?.contains(title) == true, "\(call)")
    #expect((call["body"] as? String)?.contains("Room &lt;1&gt; &amp; 2") == true, "\(call)")
    #expect(call["expire"] as? Int == -1 && (call["actions"] as? [Any])?.isEmpty == true)
  }

  /// A bus that nobody serves notifications on: the alarm is still in the server's output, and the
  /// failure says why.
  @Test func withNoNotificationServiceTheAlarmIsLoggedWithTheReason() throws {
    let store = try CLIStore()
    let (daemon, address) = try Self.bus(in: store.directory.path)
    defer {
      // SIGKILL: a child started by the test process inherits its blocked signals, SIGTERM among them.
      kill(daemon.processIdentifier, SIGKILL)
      daemon.waitUntilExit()
    }
    let empty = store.directory.path + "/empty"
    try FileManager.default.createDirectory(atPath: empty, withIntermediateDirectories: true)
    _ = try store.calendar("Work")
    let served = try ServedStore(serving: store, environment: ["PATH": empty, "DBUS_SESSION_BUS_ADDRESS": address])
    let soon = ServerAlarmTests.firing(in: 2)
    _ = try store.object([
      "event", "add", "--calendar", "Work", "--title", "Standup", "--start", soon.start, "--alarm", soon.alarm,
    ])
    let output = ServerChangeTests.read(served.errors.fileHandleForReading, until: "org.freedesktop.DBus.Error")
    served.stop()
    #expect(output.contains("alarm: Standup"), "\(output)")
    #expect(output.contains("org.freedesktop.DBus.Error.ServiceUnknown"), "\(output)")
  }
}
