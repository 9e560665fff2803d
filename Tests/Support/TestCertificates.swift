import Foundation

/// Certificate authorities and certificates made by the `openssl` command, for tests of TLS with
/// real peers (nats-server, a feed server): nothing of Kalends makes or checks them.
package enum TestCertificates {
  /// A failed `openssl` run.
  package struct Failure: Error, CustomStringConvertible {
    package let description: String
  }

  /// Runs `openssl` with `arguments`.
  package static func openssl(_ arguments: [String]) throws {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = ["openssl"] + arguments
    process.standardOutput = FileHandle.nullDevice
    process.standardError = FileHandle.nullDevice
    try process.run()
    process.waitUntilExit()
    guard process.terminationStatus == 0 else {
      throw Failure(description: "openssl \(arguments.first ?? "") exited \(process.terminationStatus)")
    }
  }

  /// A certificate authority named `name` (`DIR/NAME-ca.pem`, its key `-ca.key` beside it) and a
  /// server certificate it issued for `serverName` (a subject alternative name: `IP:127.0.0.1`,
  /// `DNS:localhost`, or both, comma-separated).
  package static func authority(
    in directory: TemporaryDirectory, _ name: String, serverName: String = "IP:127.0.0.1"
  ) throws -> (ca: String, cert: String, key: String) {
    let base = directory.path + "/" + name
    try openssl([
      "req", "-x509", "-newkey", "ed25519", "-nodes", "-keyout", base + "-ca.key", "-out", base + "-ca.pem",
      "-days", "2", "-subj", "/CN=\(name) test CA",
    ])
    let (cert, key) = try issued(by: base + "-ca.pem", subject: "127.0.0.1", at: base, serverName: serverName)
    return (base + "-ca.pem", cert, key)
  }

  /// A certificate for `subject` (its common name) signed by the authority `ca` (its key beside it,
  /// `-ca.key` for `-ca.pem`), with `serverName` as its subject alternative name when given.
  package static func issued(by ca: String, subject: String, at base: String, serverName: String? = nil) throws -> (
    cert: String, key: String
  ) {
    try openssl([
      "req", "-newkey", "ed25519", "-nodes", "-keyout", base + ".key", "-out", base + ".csr", "-subj", "/CN=\(subject)",
    ])
    var signing = [
      "x509", "-req", "-in", base + ".csr", "-CA", ca, "-CAkey",
      ca.replacingOccurrences(of: "-ca.pem", with: "-ca.key"),
      "-CAcreateserial", "-out", base + ".pem", "-days", "2",
    ]
    if let serverName {
      try "subjectAltName=\(serverName)\n".write(toFile: base + ".ext", atomically: true, encoding: .utf8)
      signing += ["-extfile", base + ".ext"]
    }
    try openssl(signing)
    return (base + ".pem", base + ".key")
  }
}
