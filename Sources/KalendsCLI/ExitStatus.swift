import Kalends

/// The exit status of each class of failure (documented in docs/cli.md and `kalends --help`).
enum ExitStatus: Int32 {
  case success = 0
  case usage = 64
  case invalidInput = 65
  case notFound = 66
  case conflict = 67
  case accessRefused = 68
  case integrity = 69
  case storage = 70

  init(_ category: StoreError.Category) {
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
struct CLIError: Error {
  let message: String
  let status: ExitStatus

  static func invalidInput(_ message: String) -> CLIError { CLIError(message: message, status: .invalidInput) }
}
