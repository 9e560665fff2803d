import Foundation
package import HTTPTypes
package import Hummingbird
package import Kalends
import KalendsFormats

/// The server's entity tags: an object's version as the app is shown it (`AppPositions.tag`, a
/// keyed hash, never the log position), quoted, strong (RFC 9110 §8.8.3). `If-Match` and
/// `If-None-Match` take them, a list of them, or `*`; anything else is `400`, never a silent
/// mismatch (`412`) or a silent ignore (`200`).
package enum EntityTag {
  /// The quoted tag of `version` for the app of `positions`.
  package static func tag(_ version: LogPosition, _ positions: AppPositions) -> String {
    "\"\(positions.tag(version))\""
  }

  /// What a precondition header names: any current version (`*`), or these tags (unquoted).
  package enum Condition: Equatable, Sendable {
    case any
    case tags([String])

    /// Whether `version`, as the app of `positions` is shown it, satisfies it.
    package func matches(_ version: LogPosition, _ positions: AppPositions) -> Bool {
      switch self {
      case .any: true
      case .tags(let tags): tags.contains(positions.tag(version))
      }
    }

    /// Refuses (412, naming no version) when `version` of `what` does not satisfy it.
    func require(_ version: LogPosition, _ positions: AppPositions, of what: String) throws {
      guard !matches(version, positions) else { return }
      throw Problem.changedSinceFetched(what)
    }
  }

  /// The condition of header `name` of `request`; `nil` when absent; a `400` problem when it is
  /// not `*` or a comma-separated list of strong tags of the shape the server gives. A tag of
  /// that shape the server never gave (an older version, another app's) matches nothing.
  package static func condition(_ name: HTTPField.Name, of request: Request) throws -> Condition? {
    guard let header = request.headers[name] else { return nil }
    let text = header.trimmingCharacters(in: CharacterSet(charactersIn: " \t"))
    if text == "*" { return .any }
    var tags: [String] = []
    for part in text.split(separator: ",", omittingEmptySubsequences: false) {
      let tag = part.trimmingCharacters(in: CharacterSet(charactersIn: " \t"))
      let inner = tag.utf8.dropFirst().dropLast()
      guard tag.utf8.count == AppPositions.tagLength + 2, tag.first == "\"", tag.last == "\"",
        inner.allSatisfy(AppPositions.isBase64URL)
      else {
        throw Problem(
          status: .badRequest, title: "invalid input",
          detail: "\(name) takes *, or versions as the ETag gives them (\"Zm9vYmFyYmF6cXV4cXV1eA\"), not \(header)",
          category: .invalidInput)
      }
      tags.append(String(decoding: inner, as: UTF8.self))
    }
    return .tags(tags)
  }
}
