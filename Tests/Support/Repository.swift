package import Foundation

/// The repository the tests run from: its root, wherever a test's file lies below it.
package enum Repository {
  /// The repository's root directory (this file is `Tests/Support/Repository.swift`).
  package static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent()

  /// The file or directory at `path`, relative to the root.
  package static func path(_ path: String) -> String { root.appendingPathComponent(path).path }
}
