import Foundation
import KalendsTestSupport
import Testing

/// `kalends serve` shows alarms through the notifier it is given — here a stand-in program that
/// writes down what it was asked to show — each once, also for a reminder, never for a cancelled
/// event; and, started again, those it missed while it was down, once.
@Suite("Server: alarms fire", .serialized)
struct ServerAlarmTests {
  /// A stand-in notifier in `directory`: appends its arguments, one line per call, to `shown`.
  static func notifier(in directory: String) throws -> (program: String, shown: String) {
    let program = directory + "/notifier"
    let shown = directory + "/shown"
    try "#!/bin/sh\nprintf '%s|%s\\n' \"$1\" \"$2\" >> '\(shown)'\n".write(
      toFile: program, atomically: true, encoding: .utf8)
    try FileManager.default.setAttributes([.posixPermissions: 0o700], ofItemAtPath: program)
    return (program, shown)
  }

  static func lines(_ path: String) -> [String] {
    ((try? String(contentsOfFile: path, encoding: .utf8)) ?? "").split(separator: "\n").map(String.init)
  }

  /// Waits until `path` holds a line containing `text`, at most `seconds`.
  static func wait(for text: String, in path: String, seconds: Double = 15) -> Bool {
    let deadline = Date().addingTimeInterval(seconds)
    while Date() < deadline {
      if lines(path).contains(where: { $0.contains(text) }) { return true }
      usleep(100_000)
    }
    return false
  }

  /// `kalends` options adding an item whose alarm fires `seconds` from now (the item starts, or is
  /// due, two minutes from now).
  static func firing(in seconds: Int) -> (start: String, alarm: String) {
    let start = Date().addingTimeInterval(120)
    let formatter = ISO8601DateFormatter()
    return (formatter.string(from: start), "\(seconds - 120)")
  }

  @Test func alarmsFireOnceAndMissedOnesAreShownOnceAtStart() throws {
    let store = try CLIStore()
    let (program, shown) = try Self.notifier(in: store.directory.path)
    _ = try store.calendar("Work")
    _ = try store.calendar("Errands", ["--reminders"])
    let served = try ServedStore(serving: store, ["--notify", program])

    let soon = Self.firing(in: 2)
    _ = try store.object([
      "event", "add", "--calendar", "Work", "--title", "Call <b>Ada</b>", "--start", soon.start, "--location", "Room 4",
      "--alarm", soon.alarm,
    ])
    _ = try store.object([
      "event", "add", "--calendar", "Work", "--title", "Cancelled call", "--start", soon.start, "--alarm", soon.alarm,
      "--status", "canceled",
    ])
    _ = try store.object([
      "reminder", "add", "--calendar", "Errands", "--title", "Buy milk", "--due", soon.start, "--alarm", soon.alarm,
    ])
    #expect(Self.wait(for: "Call <b>Ada</b>|", in: shown), "\(Self.lines(shown))")
    #expect(Self.wait(for: "Buy milk|Due ", in: shown), "\(Self.lines(shown))")
    // An alarm a second later shows at a later look, by when any shown twice would be again.
    try Self.add("Marker", firingIn: 1, to: store)
    #expect(Self.wait(for: "Marker|", in: shown), "\(Self.lines(shown))")
    let once = Self.lines(shown)
    #expect(once.count == 3, "each once, the cancelled one never: \(once)")
    #expect(once.contains { $0.hasPrefix("Call <b>Ada</b>|") && $0.contains("Room 4") }, "given as typed: \(once)")

    // Down while an alarm fires: shown once when the server is back, as missed. The server comes
    // back with its clock 5 s on (the tests' clock), past the alarm's time, without waiting for it.
    served.stop()
    try Self.add("Dentist", firingIn: 1, to: store)
    let later = ["KALENDS_TEST_CLOCK_OFFSET": "5"]
    try served.restart(environment: later)
    #expect(Self.wait(for: "Dentist|Missed", in: shown), "\(Self.lines(shown))")
    // Started again, it shows nothing it showed before: by an alarm after its start, none other.
    served.stop()
    try served.restart(environment: later)
    try Self.add("Second marker", firingIn: 6, to: store)
    #expect(Self.wait(for: "Second marker|", in: shown), "\(Self.lines(shown))")
    let all = Self.lines(shown)
    #expect(all.filter { $0.hasPrefix("Dentist|") }.count == 1, "\(all)")
    #expect(all.count == 5, "\(all)")
  }

  /// Adds to `Work` an event `title` whose alarm fires `seconds` from now.
  static func add(_ title: String, firingIn seconds: Int, to store: CLIStore) throws {
    let when = firing(in: seconds)
    _ = try store.object([
      "event", "add", "--calendar", "Work", "--title", title, "--start", when.start, "--alarm", when.alarm,
    ])
  }

  /// By default the desktop's `notify-send` shows them, its body read as markup: what an app wrote
  /// is escaped, not interpreted.
  @Test func notifySendIsTheDefaultAndItsMarkupIsEscaped() throws {
    let store = try CLIStore()
    let bin = store.directory.path + "/bin"
    try FileManager.default.createDirectory(atPath: bin, withIntermediateDirectories: true)
    let shown = store.directory.path + "/shown"
    try "#!/bin/sh\n[ \"$2\" = -- ] || exit 1\nprintf '%s|%s|%s\\n' \"$1\" \"$3\" \"$4\" >> '\(shown)'\n".write(
      toFile: bin + "/notify-send", atomically: true, encoding: .utf8)
    try FileManager.default.setAttributes([.posixPermissions: 0o700], ofItemAtPath: bin + "/notify-send")
    _ = try store.calendar("Work")
    let path = bin + ":" + (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin")
    let served = try ServedStore(serving: store, environment: ["PATH": path, "DBUS_SESSION_BUS_ADDRESS": ""])
    let soon = Self.firing(in: 2)
    _ = try store.object([
      "event", "add", "--calendar", "Work", "--title", "Tea & <i>cake</i>", "--start", soon.start, "--location",
      "<a href='x'>Room</a>", "--alarm", soon.alarm,
    ])
    #expect(Self.wait(for: "Tea & <i>cake</i>", in: shown), "\(Self.lines(shown))")
    let line = Self.lines(shown).first ?? ""
    #expect(line.hasPrefix("--app-name=Kalends|Tea & <i>cake</i>|"), "\(line)")
    #expect(line.hasSuffix("&lt;a href='x'&gt;Room&lt;/a&gt;"), "\(line)")
    served.stop()
  }

  /// A title an app wrote is text to `notify-send`, never its options (`--wait`, `--icon`,
  /// `--urgency`): it comes after `--`. A notification that does not return holds up no other, and
  /// every alarm is a line in the server's output too, with or without a desktop to show it.
  @Test func aTitleIsNeverAnOptionAndOneNotificationHoldsUpNoOther() throws {
    let store = try CLIStore()
    let bin = store.directory.path + "/bin"
    try FileManager.default.createDirectory(atPath: bin, withIntermediateDirectories: true)
    let shown = store.directory.path + "/shown"
    // A notify-send that parses options as the real one does (up to `--`), and waits 30 s on `--wait`.
    try """
    #!/bin/sh
    while [ $# -gt 0 ]; do
      case "$1" in
        --) shift; break ;;
        --wait) echo "option --wait" >> '\(shown)'; sleep 30 ;;
        -*) echo "option $1" >> '\(shown)' ;;
      esac
      shift
    done
    printf 'shown %s\\n' "$1" >> '\(shown)'
    # A notification service that does not answer: every call but Lunch's hangs.
    [ "$1" = Lunch ] || sleep 30

    """.write(toFile: bin + "/notify-send", atomically: true, encoding: .utf8)
    try FileManager.default.setAttributes([.posixPermissions: 0o700], ofItemAtPath: bin + "/notify-send")
    _ = try store.calendar("Work")
    let path = bin + ":" + (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin")
    let served = try ServedStore(serving: store, environment: ["PATH": path, "DBUS_SESSION_BUS_ADDRESS": ""])
    let soon = Self.firing(in: 2)
    for title in ["--wait", "--urgency=critical", "--icon=/tmp/x.png", "Lunch"] {
      _ = try store.object([
        "event", "add", "--calendar", "Work", "--title=\(title)", "--start", soon.start, "--alarm", soon.alarm,
      ])
    }
    #expect(Self.wait(for: "shown Lunch", in: shown, seconds: 8), "held up: \(Self.lines(shown))")
    let lines = Self.lines(shown)
    #expect(Set(lines.filter { $0.hasPrefix("option ") }) == ["option --app-name=Kalends"], "\(lines)")
    for title in ["--wait", "--urgency=critical", "--icon=/tmp/x.png"] {
      #expect(Self.wait(for: "shown \(title)", in: shown, seconds: 5), "\(title): \(Self.lines(shown))")
    }
    served.stop()
    let output = String(decoding: served.errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    #expect(output.contains("alarm: Lunch"), "the server's output: \(output)")
  }

  /// Without `notify-send` (a headless machine, an ssh session), alarms are still told: in the
  /// server's output.
  @Test func withoutADesktopAlarmsAreInTheServersOutput() throws {
    let store = try CLIStore()
    _ = try store.calendar("Work")
    let empty = store.directory.path + "/empty"
    try FileManager.default.createDirectory(atPath: empty, withIntermediateDirectories: true)
    let served = try ServedStore(serving: store, environment: ["PATH": empty, "DBUS_SESSION_BUS_ADDRESS": ""])
    let soon = Self.firing(in: 2)
    _ = try store.object([
      "event", "add", "--calendar", "Work", "--title", "Standup", "--start", soon.start, "--alarm", soon.alarm,
    ])
    let output = ServerChangeTests.read(served.errors.fileHandleForReading, until: "alarm: Standup")
    #expect(output.contains("alarm: Standup"), "\(output)")
    served.stop()
  }

  /// The person's settings file names the notifier and the zone alarms are told in, as --notify
  /// and $TZ would.
  @Test func theSettingsFileNamesTheNotifierAndTheZone() throws {
    let store = try CLIStore()
    let (program, shown) = try Self.notifier(in: store.directory.path)
    let settings = store.directory.path + "/config.toml"
    try "notify = \"\(program)\"\nzone = \"Asia/Kolkata\"\n".write(toFile: settings, atomically: true, encoding: .utf8)
    _ = try store.calendar("Errands", ["--reminders"])
    let served = try ServedStore(serving: store, environment: ["KALENDS_CONFIG": settings, "TZ": ""])
    let soon = Self.firing(in: 2)
    _ = try store.object([
      "reminder", "add", "--calendar", "Errands", "--title", "Buy milk", "--due", soon.start, "--alarm", soon.alarm,
    ])
    #expect(Self.wait(for: "Buy milk|", in: shown), "\(Self.lines(shown))")
    served.stop()
    let due = try #require(ISO8601DateFormatter().date(from: soon.start))
    let formatter = DateFormatter()
    formatter.locale = Locale(identifier: "en_US_POSIX")
    formatter.timeZone = TimeZone(identifier: "Asia/Kolkata")
    formatter.dateFormat = "EEE yyyy-MM-dd HH:mm"
    #expect(Self.lines(shown) == ["Buy milk|Due \(formatter.string(from: due))"], "in Kolkata's time")
  }
}
