import Foundation
import KalendsTestSupport
import Testing

/// `kalends account probe` against a real CalDAV and CardDAV server: Radicale 3 from PyPI
/// (Tests/Oracles/radicale_server.py), its collections made with curl as any client makes them.
@Suite("Command line: an account is found from its address")
struct AccountProbeTests {
  static let launcher = Repository.root.appendingPathComponent("Tests/Oracles/radicale_server.py").path

  /// A started Radicale serving `directory` for ann, password `s3cret-pass`, and its address: on
  /// `port` when given (a server started again where it was), else a free one.
  final class Radicale {
    let process: Process
    let base: String
    let port: String

    init(_ directory: String, port: String? = nil) throws {
      try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
      let (process, output, _) = try CLI.start(
        ["python3", AccountProbeTests.launcher, directory, "ann", "s3cret-pass"] + (port.map { [$0] } ?? []),
        program: URL(fileURLWithPath: "/usr/bin/env"))
      self.process = process
      let port = output.fileHandleForReading.availableLine()
      base = "http://127.0.0.1:\(port)"
      self.port = port
      for _ in 0..<300 {
        if (try? CLI.run(["curl", "-s", "-o", "/dev/null", base + "/"], program: URL(fileURLWithPath: "/usr/bin/env")))?
          .status == 0
        {
          return
        }
        Thread.sleep(forTimeInterval: 0.1)
      }
      Issue.record("Radicale did not answer at \(base)")
    }

    /// `curl` as ann.
    func curl(_ method: String, _ path: String, _ body: String? = nil) throws -> String {
      var arguments = ["curl", "-s", "-o", "/dev/null", "-w", "%{http_code}", "-u", "ann:s3cret-pass", "-X", method]
      if let body { arguments += ["-H", "Content-Type: application/xml", "--data", body] }
      return try CLI.run(arguments + [base + path], program: URL(fileURLWithPath: "/usr/bin/env")).stdout
    }

    /// `PUT` of the iCalendar `body` at `path` as ann: the status.
    func put(_ path: String, _ body: String) throws -> String {
      try CLI.run(
        [
          "curl", "-s", "-o", "/dev/null", "-w", "%{http_code}", "-u", "ann:s3cret-pass", "-X", "PUT", "-H",
          "Content-Type: text/calendar", "--data-binary", body, base + path,
        ], program: URL(fileURLWithPath: "/usr/bin/env")
      ).stdout
    }

    /// The body of `path` as ann.
    func get(_ path: String) throws -> String {
      try CLI.run(["curl", "-s", "-u", "ann:s3cret-pass", base + path], program: URL(fileURLWithPath: "/usr/bin/env"))
        .stdout
    }

    /// Stops the server: its port then refuses connections.
    func stop() {
      kill(process.processIdentifier, SIGKILL)
      process.waitUntilExit()
    }

    deinit {
      // SIGKILL: a child started by the test process inherits its blocked signals, SIGTERM among them.
      kill(process.processIdentifier, SIGKILL)
      process.waitUntilExit()
    }
  }

  static func mkcalendar(_ name: String, _ component: String) -> String {
    """
    <C:mkcalendar xmlns:D="DAV:" xmlns:C="urn:ietf:params:xml:ns:caldav" xmlns:A="http://apple.com/ns/ical/">\
    <D:set><D:prop><D:displayname>\(name)</D:displayname><A:calendar-color>#FF9500</A:calendar-color>\
    <C:supported-calendar-component-set><C:comp name="\(component)"/></C:supported-calendar-component-set>\
    </D:prop></D:set></C:mkcalendar>
    """
  }

  static let addressBook = """
    <D:mkcol xmlns:D="DAV:" xmlns:CR="urn:ietf:params:xml:ns:carddav"><D:set><D:prop>\
    <D:resourcetype><D:collection/><CR:addressbook/></D:resourcetype><D:displayname>Friends</D:displayname>\
    </D:prop></D:set></D:mkcol>
    """

  @Test func aBareAddressLeadsToThePrincipalItsHomesAndCollections() throws {
    let directory = TemporaryDirectory("radicale")
    let server = try Radicale(directory.path)
    #expect(try server.curl("MKCALENDAR", "/ann/work/", Self.mkcalendar("Work", "VEVENT")) == "201")
    #expect(try server.curl("MKCALENDAR", "/ann/tasks/", Self.mkcalendar("Tasks", "VTODO")) == "201")
    #expect(try server.curl("MKCOL", "/ann/friends/", Self.addressBook) == "201")
    let secret = directory.path + "/password"
    try "s3cret-pass\n".write(toFile: secret, atomically: true, encoding: .utf8)
    chmod(secret, 0o600)

    let probed = try CLI.run([
      "account", "probe", server.base, "--user", "ann", "--password-file", secret, "--format", "json",
    ])
    #expect(probed.status == 0, "\(probed.stderr)")
    let found = try #require(try json(probed.stdout) as? [String: Any])
    #expect(found["principal"] as? String == server.base + "/ann/", "\(found)")
    #expect(found["calendarHome"] as? String == server.base + "/ann/")
    let collections = try #require(found["collections"] as? [[String: Any]])
    let summary = collections.map { "\($0["kind"]!) \($0["name"]!) \(($0["components"] as? [String]) ?? [])" }
    #expect(
      summary == ["addressBook Friends []", "calendar Tasks [\"VTODO\"]", "calendar Work [\"VEVENT\"]"], "\(summary)")
    #expect(collections.allSatisfy { $0["writable"] as? Bool == true && $0["syncToken"] as? Bool == true })
    #expect(collections.first { $0["name"] as? String == "Work" }?["color"] as? String == "#FF9500")

    // The same through a password command; the password is in no output.
    let command = try CLI.run([
      "account", "probe", server.base + "/ann/", "--user", "ann", "--password-command", "echo s3cret-pass",
    ])
    #expect(command.status == 0 && command.stdout.contains("Work"), "\(command.stderr)")
    #expect(!(command.stdout + command.stderr + probed.stdout + probed.stderr).contains("s3cret-pass"))
  }

  @Test func aWrongPasswordAnOpenPasswordFileOrAFailingCommandIsRefusedClearly() throws {
    let directory = TemporaryDirectory("radicale")
    let server = try Radicale(directory.path)
    let wrong = try CLI.run(["account", "probe", server.base, "--user", "ann", "--password-command", "echo nope"])
    #expect(wrong.status == 68 && wrong.stderr.contains("refused the user name or password"), "\(wrong.stderr)")

    let open = directory.path + "/open-password"
    try "s3cret-pass\n".write(toFile: open, atomically: true, encoding: .utf8)
    chmod(open, 0o644)
    let refused = try CLI.run(["account", "probe", server.base, "--user", "ann", "--password-file", open])
    #expect(refused.status == 65 && refused.stderr.contains("chmod 600"), "\(refused.stderr)")

    let failing = try CLI.run(["account", "probe", server.base, "--user", "ann", "--password-command", "exit 3"])
    #expect(failing.status == 65 && failing.stderr.contains("failed (status 3)"), "\(failing.stderr)")
    let nothing = try CLI.run([
      "account", "probe", "http://127.0.0.1:1", "--user", "ann", "--password-command", "echo x",
    ])
    #expect(nothing.status == 66 && nothing.stderr.contains("unreachable"), "\(nothing.stderr)")
  }
}
