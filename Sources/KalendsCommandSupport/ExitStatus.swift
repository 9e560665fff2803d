package import Kalends
package import KalendsFormats

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
    self.init(FailureCategory(category))
  }

  /// The exit status of a failure of `category`.
  package init(_ category: FailureCategory) {
    switch category {
    case .usage: self = .usage
    case .invalidInput: self = .invalidInput
    case .notFound: self = .notFound
    case .conflict: self = .conflict
    case .accessRefused: self = .accessRefused
    case .integrity: self = .integrity
    case .storage: self = .storage
    }
  }
}

/// A failure the command line itself detects: a ``RequestError`` by the name the commands use.
package typealias CLIError = RequestError

extension RequestError {
  /// A failure with the exit status `status`.
  package init(message: String, status: ExitStatus) {
    self.init(message: message, category: FailureCategory(status))
  }

  /// Its exit status.
  package var status: ExitStatus { ExitStatus(category) }
}

extension FailureCategory {
  /// The category of an exit status: the one `ExitStatus.init(_:)` maps to it (a success is no
  /// failure; it reads as `usage`).
  init(_ status: ExitStatus) {
    self = Self.allCases.first { ExitStatus($0) == status } ?? .usage
  }
}
