import Foundation
import Testing

/// A store with an app, a denial, twenty notes, a key and a checkpoint of it all, kept in a file
/// outside the store as an auditor keeps it.
package struct AuditedStore {
  package let store: CLIStore
  package let files = TemporaryDirectory("transparency")
  package var key: String { files.path + "/log.key" }
  package var kept: String { files.path + "/checkpoint" }
  package let verifier: String

  package init() throws {
    store = try CLIStore()
    try store.register("com.example.social")
    let denied = try store.run([
      "access", "set", "com.example.social", "--service", "calendars", "--status", "denied",
    ])
    try #require(denied.status == 0, "\(denied.stderr)")
    for index in 0..<20 { try store.run(["log", "annotate", "note \(index)"]) }
    let generated = try store.run(["key", "generate", "--out", files.path + "/log.key"])
    try #require(generated.status == 0, "\(generated.stderr)")
    verifier = generated.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    let signed = try store.run(["checkpoint", "sign", "--key", files.path + "/log.key"])
    try #require(signed.status == 0, "\(signed.stderr)")
    try signed.stdout.write(toFile: files.path + "/checkpoint", atomically: true, encoding: .utf8)
  }

  package func verifySince() throws -> CLI.Result {
    try store.run(["audit", "verify", "--since", kept, "--key", verifier])
  }
}
