package import Kalends

/// The exit status of each class of failure (documented in docs/cli.md and `kalends --help`).
package enum ExitStatus: Int32 {
  case success = 0
  case usage = 64
  case invalidInput = 65
  case notFound = 66
  case conflict = 67
  case accessRefused = 68
  case integrity = 69
  case storage = 70

  package init(_ category: StoreError.Category) {
    switch category {
    case .invalidInput: self = .invalidInput
    case .notFound: self = .notFound
    case .conflict: self = .conflict
    case .accessRefused: self = .accessRefused
    case .integrity: self = .integrity
    case .storage: self = .storage
    }
  }
}

/// A failure the CLI itself detects, with its message and exit status.
package struct CLIError: Error {
  package let message: String
  package let status: ExitStatus

  package init(message: String, status: ExitStatus) {
    self.message = message
    self.status = status
  }

  package static func invalidInput(_ message: String) -> CLIError { CLIError(message: message, status: .invalidInput) }
}
