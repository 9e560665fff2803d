public import Foundation
public import Kalends

/// When an account was last synced, and how the last attempt ended: `STORE/accounts/ID.status`,
/// beside its credentials file. Not a fact of the log — a sync that brings nothing writes no record
/// — but what `account show`, `account list` and `kalends status` tell the person.
public struct AccountSyncStatus: Sendable, Codable, Hashable {
  /// When the last sync started.
  public var lastAttempt: Date?
  /// When the last sync that completed started.
  public var lastSuccess: Date?
  /// Why the last attempt failed; `nil` when it completed.
  public var lastError: String?
  /// Attempts that failed in a row since the last that completed.
  public var failures: Int?
  /// Not before when `kalends serve` tries again after failures: 30 s after the first, doubling to
  /// an hour, or when the server's `Retry-After` said. `nil` after a sync that completed.
  public var nextAttempt: Date?

  public init() {}

  /// The file of the account `id` of the store at `storePath`.
  public static func path(forAccount id: ObjectID, store storePath: String) -> String {
    storePath + "/accounts/" + id.description + ".status"
  }

  /// The status at `path`, or an empty one when there is none (never synced) or it cannot be read.
  public static func load(from path: String) -> AccountSyncStatus {
    guard let data = FileManager.default.contents(atPath: path),
      let status = try? JSONDecoder.withDates.decode(AccountSyncStatus.self, from: data)
    else { return AccountSyncStatus() }
    return status
  }

  /// Writes it to `path` (mode 0600), replacing what was there; a failure to write loses only this
  /// note.
  func save(to path: String) {
    guard let data = try? JSONEncoder.withDates.encode(self) else { return }
    try? PrivateFile.write(data, to: path)
  }
}

extension AccountSync {
  /// Syncs `account` into `store` (the person's session) at `storePath`, signing in with the
  /// credentials its file names, and notes the outcome in its ``AccountSyncStatus``. A sync of the
  /// same account in another process (`kalends serve`'s, the person's) ends first: this one waits.
  public static func sync(
    _ account: CalendarAccount, into store: EventStore, storePath: String, timeout: Int = 30,
    progress: @escaping (Progress) -> Void = { _ in }
  ) async throws(AccountError) -> Summary {
    // Another sync of this account (serve's, or the person's) ends first.
    let lock = try await AccountLock(forAccount: account.id, store: storePath)
    defer { withExtendedLifetime(lock) {} }
    let statusPath = AccountSyncStatus.path(forAccount: account.id, store: storePath)
    var status = AccountSyncStatus.load(from: statusPath)
    let started = Date()
    status.lastAttempt = started
    do {
      let credentials = try AccountCredentials.load(
        from: AccountCredentials.path(forAccount: account.id, store: storePath))
      let summary = try await sync(account, into: store, credentials: credentials, timeout: timeout, progress: progress)
      status.lastSuccess = started
      (status.lastError, status.failures, status.nextAttempt) = (nil, nil, nil)
      status.save(to: statusPath)
      return summary
    } catch {
      status.lastError = error.description
      let failures = (status.failures ?? 0) + 1
      status.failures = failures
      status.nextAttempt = started.addingTimeInterval(Double(backoff(after: failures, error)))
      status.save(to: statusPath)
      throw error
    }
  }

  /// Seconds to wait after `failures` failed attempts in a row, the last with `error`: what the
  /// server's `Retry-After` asked (at most a day), else 30 s doubling to an hour.
  static func backoff(after failures: Int, _ error: AccountError) -> Int {
    if case .busy(_, let seconds?) = error { return min(seconds, 86_400) }
    return min(30 << min(failures - 1, 7), 3_600)
  }
}

extension JSONEncoder {
  fileprivate static var withDates: JSONEncoder {
    let encoder = JSONEncoder()
    encoder.dateEncodingStrategy = .iso8601
    return encoder
  }
}

extension JSONDecoder {
  fileprivate static var withDates: JSONDecoder {
    let decoder = JSONDecoder()
    decoder.dateDecodingStrategy = .iso8601
    return decoder
  }
}
