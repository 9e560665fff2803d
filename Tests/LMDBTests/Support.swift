import Foundation
import LMDB

/// A directory under the system temporary directory, removed when the value is released.
final class TemporaryDirectory {
  let path: String

  init(_ label: String = "lmdb") {
    let template = NSTemporaryDirectory() + "kalends-\(label)-XXXXXX"
    var bytes = Array(template.utf8CString)
    guard let created = mkdtemp(&bytes) else { fatalError("mkdtemp failed for \(template)") }
    path = String(cString: created)
  }

  deinit { try? FileManager.default.removeItem(atPath: path) }
}

/// Runs `body` with an environment in a fresh temporary directory, removed afterwards.
@discardableResult
func withEnvironment<R>(
  _ options: EnvironmentOptions = EnvironmentOptions(durability: .noSync),
  _ body: (Environment, String) throws -> R
) throws -> R {
  let directory = TemporaryDirectory()
  return try withExtendedLifetime(directory) {
    try body(try Environment(path: directory.path, options: options), directory.path)
  }
}

/// Bytes of a string, for concise test values.
func bytes(_ text: String) -> [UInt8] { Array(text.utf8) }
