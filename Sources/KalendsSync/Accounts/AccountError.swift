public import Kalends

/// Why an account could not be reached or read.
public enum AccountError: Error, Hashable, Sendable, CustomStringConvertible {
  /// The password could not be had: the command failed, or the file is missing or readable by
  /// others.
  case credentials(String)
  /// The server refused the user name or password (401), or the user's access (403).
  case refused(status: Int, url: String)
  /// The server asked to be left alone for now (429, 503), for `retryAfter` seconds when it said.
  case busy(status: Int, retryAfter: Int?)
  /// The server could not be reached, or its answer not read.
  case remote(RemoteError)
  /// The server answered, but not as a CalDAV or CardDAV server of this account does.
  case notDAV(String)
  /// The store refused what the sync brought, or could not be written.
  case store(StoreError)

  public var description: String {
    switch self {
    case .credentials(let reason): "the password could not be had: \(reason)"
    case .refused(let status, let url):
      status == 401
        ? "\(url) refused the user name or password (401) — check them, or use an app password"
        : "\(url) refused the user (\(status))"
    case .busy(let status, let seconds):
      "the server is busy (\(status))" + (seconds.map { ", and asked to wait \($0) s" } ?? "")
    case .remote(let error): error.description
    case .notDAV(let reason): "not a CalDAV or CardDAV account: \(reason)"
    case .store(let error): error.description
    }
  }

  /// The failure's class, as the command line's exit statuses tell it.
  public var category: StoreError.Category {
    switch self {
    case .credentials: .invalidInput
    case .refused: .accessRefused
    case .remote, .notDAV, .busy: .notFound
    case .store(let error): error.category
    }
  }

  /// `body`, a call of the store, with its failure as ``store(_:)``.
  static func fromStore<T>(_ body: () throws(StoreError) -> T) throws(AccountError) -> T {
    do {
      return try body()
    } catch {
      throw .store(error)
    }
  }
}
