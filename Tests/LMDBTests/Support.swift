import Foundation
import KalendsTestSupport
import LMDB

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
