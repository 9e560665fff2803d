import Foundation
import Testing

/// `Tests/Oracles/forge_log.py`: appends a record with an intact chain, as anyone who can write the store's
/// files can.
package enum Forger {
  package static let script = Repository.root
    .appendingPathComponent("Tests/Oracles/forge_log.py").path

  /// Forges one record; returns its position.
  @discardableResult
  package static func append(
    _ store: String, actor: String, kind: Int, fields: [String], time: Int64? = nil
  ) throws -> Int {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    var arguments = ["python3", script, store, "--actor", actor, "--kind", String(kind)]
    for field in fields { arguments += ["--field", field] }
    if let time { arguments += ["--time", String(time)] }
    process.arguments = arguments
    let output = Pipe()
    process.standardOutput = output
    try process.run()
    let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    try #require(process.terminationStatus == 0, "forge_log.py failed")
    return try #require(Int(text.trimmingCharacters(in: .whitespacesAndNewlines)))
  }

  /// The fields of an `accessDecided` record about `client` for calendars.
  package static func decision(_ client: String, status: Int, previous: Int, reason: Int) -> [String] {
    ["1:s:\(client)", "2:u:1", "3:u:\(status)", "4:u:\(previous)", "5:u:\(reason)"]
  }
}
