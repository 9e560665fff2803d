import Foundation

/// A directory under the system temporary directory, removed when the value is released.
package final class TemporaryDirectory {
  package let path: String

  package init(_ label: String = "test") {
    let template = NSTemporaryDirectory() + "kalends-\(label)-XXXXXX"
    var bytes = Array(template.utf8CString)
    guard let created = mkdtemp(&bytes) else { fatalError("mkdtemp failed for \(template)") }
    path = String(cString: created)
  }

  /// A path inside the directory that does not exist yet, for a store.
  package var storePath: String { path + "/store" }

  deinit { try? FileManager.default.removeItem(atPath: path) }
}
