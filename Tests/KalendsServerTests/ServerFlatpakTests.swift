import Foundation
import KalendsTestSupport
import Testing

/// A Flatpak app, as the server identifies it: by the `[Application] name` of the `/.flatpak-info`
/// in the process's own root (`/proc/PID/root`), which Flatpak writes and the sandboxed app cannot
/// change, cross-checked as xdg-desktop-portal does against Flatpak's record of the sandbox on the
/// host (`$XDG_RUNTIME_DIR/.flatpak/INSTANCE/bwrapinfo.json`). Here a process connects, writes the
/// instance record as `flatpak run` would (naming itself, or another process), then changes its
/// root (`chroot`, as root) to a directory whose `.flatpak-info` names the app and the instance.
@Suite("The store server identifies a Flatpak app by its sandbox's id")
struct ServerFlatpakTests {
  /// Connects to the socket (argv[1]); writes the record of instance argv[4] under the runtime
  /// directory argv[3] naming process argv[5] (`self`: itself; `none`: no record); chroots into
  /// argv[2]; then asks `GET /v1/whoami`; prints the status and the body.
  static let sandboxed = """
    import json, os, socket, sys
    s = socket.socket(socket.AF_UNIX); s.connect(sys.argv[1])
    if sys.argv[5] != "none":
        record = os.path.join(sys.argv[3], ".flatpak", sys.argv[4])
        os.makedirs(record, exist_ok=True)
        child = os.getpid() if sys.argv[5] == "self" else int(sys.argv[5])
        with open(os.path.join(record, "bwrapinfo.json"), "w") as f: json.dump({"child-pid": child}, f)
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

  static func sandbox(_ directory: String, app: String, instance: String = "1234") throws -> String {
    let root = directory + "/sandbox-" + app
    try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
    try
      "[Application]\nname=\(app)\nruntime=runtime/org.freedesktop.Platform/x86_64/24.08\n\n[Instance]\ninstance-id=\(instance)\n"
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
    func run(_ app: String, instance: String, child: String) throws -> CLI.Result {
      try CLI.run(
        [
          "python3", "-c", Self.sandboxed, served.socket, try Self.sandbox(directory, app: app, instance: instance),
          served.runtimeDirectory, instance, child,
        ], program: python)
    }
    let allowed = try run("org.example.Agenda", instance: "1234", child: "self")
    let lines = allowed.stdout.split(separator: "\n", maxSplits: 1).map(String.init)
    #expect(lines.first == "200", "\(allowed.stdout) \(allowed.stderr)")
    let identity = try #require(try json(lines.last ?? "") as? [String: Any])
    #expect(identity["client"] as? String == "org.example.Agenda")
    #expect(identity["identifiedBy"] as? String == "flatpak")
    #expect(identity["flatpakApp"] as? String == "org.example.Agenda")

    // Another sandbox's id is no registered app: refused, and the record names the id it saw.
    let other = try run("org.example.Other", instance: "1235", child: "self")
    #expect(other.stdout.hasPrefix("401"), "\(other.stdout) \(other.stderr)")
    let refused = try #require(try served.records("callerUnidentified").last)
    #expect((refused["payload"] as? [String: Any])?["flatpakApp"] as? String == "org.example.Other")

    // The review's forgery: a namespace of one's own with a /.flatpak-info naming the app, and no
    // sandbox that Flatpak ran — no instance record, or one naming a process in another mount
    // namespace. The id is not believed.
    let unrecorded = try run("org.example.Agenda", instance: "1236", child: "none")
    #expect(unrecorded.stdout.hasPrefix("401"), "\(unrecorded.stdout) \(unrecorded.stderr)")
    let (elsewhere, _, _) = try CLI.start(
      ["--mount", "sleep", "30"], program: URL(fileURLWithPath: "/usr/bin/unshare"))
    defer {
      kill(elsewhere.processIdentifier, SIGKILL)
      elsewhere.waitUntilExit()
    }
    // Once unshare has made its mount namespace, its pid (which sleep then keeps) names it.
    let ours = try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/ns/mnt")
    let deadline = Date().addingTimeInterval(10)
    while Date() < deadline,
      (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\(elsewhere.processIdentifier)/ns/mnt"))
        ?? ours == ours
    {
      _ = poll(nil, 0, 10)
    }
    let foreign = try run("org.example.Agenda", instance: "1237", child: String(elsewhere.processIdentifier))
    #expect(foreign.stdout.hasPrefix("401"), "\(foreign.stdout) \(foreign.stderr)")
    let forged = try served.records("callerUnidentified").compactMap { $0["payload"] as? [String: Any] }
    #expect(forged.allSatisfy { $0["flatpakApp"] as? String != "org.example.Agenda" }, "\(forged)")
  }
}
