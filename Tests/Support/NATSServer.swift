import Foundation
import Testing

/// A real `nats-server` with JetStream on a free loopback port, its data in a temporary directory;
/// stopped when released.
package final class NATSServer {
  package let directory = TemporaryDirectory("nats")
  private let process = Process()
  /// `nats://127.0.0.1:PORT`.
  package let url: String

  /// The port it listens on.
  package var port: Int { URLComponents(string: url)?.port ?? 0 }

  /// Starts the server; `configuration` is the text of a configuration file (users and their
  /// permissions, TLS) it reads besides the loopback address, port and JetStream directory.
  package init(configuration: String? = nil) throws {
    let program = try #require(
      ["/usr/sbin/nats-server", "/usr/bin/nats-server", "/usr/local/bin/nats-server"].first {
        FileManager.default.isExecutableFile(atPath: $0)
      }, "nats-server is not installed (tools/setup installs it)")
    process.executableURL = URL(fileURLWithPath: program)
    var arguments = [
      "-a", "127.0.0.1", "-p", "-1", "-js", "-sd", directory.path + "/js", "--ports_file_dir", directory.path,
    ]
    if let configuration {
      let file = directory.path + "/server.conf"
      try configuration.write(toFile: file, atomically: true, encoding: .utf8)
      arguments += ["-c", file]
    }
    process.arguments = arguments
    process.standardOutput = FileHandle.nullDevice
    process.standardError = FileHandle.nullDevice
    try process.run()
    var found: String?
    for _ in 0..<200 where found == nil {
      let files = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
      if let ports = files.first(where: { $0.hasSuffix(".ports") }),
        let data = FileManager.default.contents(atPath: directory.path + "/" + ports),
        let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
        let urls = object["nats"] as? [String], let first = urls.first
      {
        found = first
      } else {
        Thread.sleep(forTimeInterval: 0.05)
      }
    }
    url = try #require(found, "nats-server did not start")
  }

  deinit {
    process.terminate()
    process.waitUntilExit()
  }
}
