package import Kalends

/// The class of a failure, as the front ends report it: the command line as its exit status, the
/// store server as the `category` of its problem details (docs/server.md) and its HTTP status.
package enum FailureCategory: String, Sendable, CaseIterable {
  /// The command or request is malformed: an unknown option, a missing argument, a route's method.
  case usage
  /// A value given is not one Kalends takes.
  case invalidInput
  /// What was named does not exist (or is not the caller's to see).
  case notFound
  /// The store's state does not allow it now.
  case conflict
  /// The caller may not do it.
  case accessRefused
  /// The store's data or a proof does not hold.
  case integrity
  /// The file system, the store or a socket failed.
  case storage

  /// The category of a store error.
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

/// A failure a front end reports in words with its category: what it says is all a person or an
/// app needs to act on it.
package protocol CategorizedFailure: Error {
  /// What failed and what to do instead, in one line.
  var message: String { get }
  /// Its class.
  var category: FailureCategory { get }
}
