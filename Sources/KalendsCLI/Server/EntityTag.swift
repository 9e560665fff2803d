import Foundation
import HTTPTypes
import Hummingbird
import Kalends
import KalendsCommandSupport

/// The server's entity tags: an object's version, quoted (`"42"`), strong (RFC 9110 §8.8.3).
/// `If-Match` and `If-None-Match` take them, a list of them, or `*`; anything else is `400`, never
/// a silent mismatch (`412`) or a silent ignore (`200`).
enum EntityTag {
  /// The tag of `version`.
  static func tag(_ version: LogPosition) -> String { "\"\(version.rawValue)\"" }

  /// What a precondition header names: any current version (`*`), or these versions.
  enum Condition: Equatable {
    case any
    case versions([LogPosition])

    /// Whether `version` satisfies it.
    func matches(_ version: LogPosition) -> Bool {
      switch self {
      case .any: true
      case .versions(let versions): versions.contains(version)
      }
    }
  }

  /// The condition of header `name` of `request`; `nil` when absent; a `400` problem when it is
  /// not `*` or a comma-separated list of strong tags.
  static func condition(_ name: HTTPField.Name, of request: Request) throws -> Condition? {
    guard let header = request.headers[name] else { return nil }
    let text = header.trimmingCharacters(in: CharacterSet(charactersIn: " \t"))
    if text == "*" { return .any }
    var versions: [LogPosition] = []
    for part in text.split(separator: ",", omittingEmptySubsequences: false) {
      let tag = part.trimmingCharacters(in: CharacterSet(charactersIn: " \t"))
      guard tag.count >= 3, tag.count <= 20, tag.first == "\"", tag.last == "\"",
        tag.dropFirst().dropLast().allSatisfy({ $0.isASCII && $0.isNumber }),
        let number = UInt64(tag.dropFirst().dropLast())
      else {
        throw Problem(
          status: .badRequest, title: "invalid input",
          detail: "\(name) takes *, or versions as the ETag gives them (\"42\"), not \(header)",
          exitStatus: .invalidInput)
      }
      versions.append(LogPosition(number))
    }
    return .versions(versions)
  }
}
