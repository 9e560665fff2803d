import Foundation

/// `Tests/Oracles/tlog_oracle.py` (C2SP's formats and RFC 9162 in Python, Ed25519 from
/// `cryptography`) and `Tests/Oracles/sigstore_check.py` (the `sigstore` package's own checks),
/// run as processes: code that shares nothing with Kalends.
package enum TlogOracle {
  package static let script = Repository.path("Tests/Oracles/tlog_oracle.py")
  static let sigstoreCheck = Repository.path("Tests/Oracles/sigstore_check.py")

  /// The oracle run with `arguments`.
  package static func run(_ arguments: [String]) throws -> CLI.Result {
    try CLI.run(["python3", script] + arguments, program: URL(fileURLWithPath: "/usr/bin/env"))
  }

  /// The `sigstore` package's checks of `bundle` against `key`.
  package static func sigstore(_ bundle: String, _ key: String) throws -> CLI.Result {
    try CLI.run(["python3", sigstoreCheck, bundle, key], program: URL(fileURLWithPath: "/usr/bin/env"))
  }
}
