import Foundation
import Testing

/// A Flatpak app, as the server identifies it: by the `[Application] name` of the `/.flatpak-info`
/// in the process's own root (`/proc/PID/root`), which Flatpak writes and the sandboxed app cannot
/// change. Here a process connects, then changes its root (`chroot`, as root) to a directory whose
/// `.flatpak-info` names the app — what the kernel shows the server of a sandboxed process.
@Suite("The store server identifies a Flatpak app by its sandbox's id")
struct ServerFlatpakTests {
  /// Connects to the socket, chroots into argv[2], then asks `GET /v1/whoami`; prints the status
  /// and the body.
  static let sandboxed = """
    import os, socket, sys
    s = socket.socket(socket.AF_UNIX); s.connect(sys.argv[1])
    os.chroot(sys.argv[2]); os.chdir("/")
    s.sendall(b"GET /v1/whoami HTTP/1.1\\r\\nHost: kalends\\r\\nConnection: close\\r\\n\\r\\n")
    data = b""
    while True:
        chunk = s.recv(65536)
        if not chunk: break
        data += chunk
    head, _, body = data.partition(b"\\r\\n\\r\\n")
    print(head.split(b" ")[1].decode()); print(body.decode())
    """

  static func sandbox(_ directory: String, app: String) throws -> String {
    let root = directory + "/sandbox-" + app
    try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
    try "[Application]\nname=\(app)\nruntime=runtime/org.freedesktop.Platform/x86_64/24.08\n\n[Instance]\n"
      .write(toFile: root + "/.flatpak-info", atomically: true, encoding: .utf8)
    return root
  }

  @Test(.enabled(if: getuid() == 0, "needs root to change a process's root"))
  func theSandboxsAppIdIdentifiesTheAppAndAnotherIdIsRefused() throws {
    let served = try ServedStore()
    try served.store.object([
      "client", "register", "org.example.Agenda", "--name", "Agenda", "--usage", "calendars-full=Week.",
      "--flatpak", "org.example.Agenda",
    ])
    let directory = served.store.directory.path
    let python = URL(fileURLWithPath: "/usr/bin/env")
    let allowed = try CLI.run(
      ["python3", "-c", Self.sandboxed, served.socket, try Self.sandbox(directory, app: "org.example.Agenda")],
      program: python)
    let lines = allowed.stdout.split(separator: "\n", maxSplits: 1).map(String.init)
    #expect(lines.first == "200", "\(allowed.stdout) \(allowed.stderr)")
    let identity = try #require(try json(lines.last ?? "") as? [String: Any])
    #expect(identity["client"] as? String == "org.example.Agenda")
    #expect(identity["identifiedBy"] as? String == "flatpak")
    #expect(identity["flatpakApp"] as? String == "org.example.Agenda")

    // Another sandbox's id is no registered app: refused, and the record names the id it saw.
    let other = try CLI.run(
      ["python3", "-c", Self.sandboxed, served.socket, try Self.sandbox(directory, app: "org.example.Other")],
      program: python)
    #expect(other.stdout.hasPrefix("401"), "\(other.stdout) \(other.stderr)")
    let refused = try #require(try served.records("callerUnidentified").last)
    #expect((refused["payload"] as? [String: Any])?["flatpakApp"] as? String == "org.example.Other")
  }
}
