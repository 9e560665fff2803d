import Foundation
import Kalends
import KalendsServer
import KalendsSync
import Synchronization

/// The sync of accounts while `kalends serve` runs: every account at start, then each one whose
/// interval has passed since its last sync in this run, and — checked every few seconds — each one
/// with local changes (to its calendars or address books) waiting to go out (an app's or the person's write reaches the server within
/// seconds). An account whose last attempts failed waits as its status says (backoff, the server's
/// `Retry-After`). A sync that changed the store, or failed, is a line of the log.
enum AccountCompanion {
  static func make(storePath: String, every interval: Duration, checkEvery: Duration = .seconds(5)) -> Companion {
    let synced = Mutex<[ObjectID: Timestamp]>([:])
    let microseconds = interval.components.seconds * 1_000_000
    return Companion(interval: checkEvery, failure: "accounts could not be synced") { store in
      let person = EventStore(store: store)
      let now = store.now()
      let due = try person.accounts().filter { account in
        let status = AccountSyncStatus.load(from: AccountSyncStatus.path(forAccount: account.id, store: storePath))
        if let next = status.nextAttempt, next > Date() { return false }
        guard let last = synced.withLock({ $0[account.id] }) else { return true }
        if now.rawValue - last.rawValue >= microseconds { return true }
        let collections =
          try person.calendars(ofAccount: account.id).map(\.id)
          + person.contactStore.addressBooks(ofAccount: account.id).map(\.id)
        return try !person.outgoingCounts(inCollections: collections).isEmpty
      }
      var lines: [String] = []
      for account in due {
        do {
          let summary = try await AccountSync.sync(account, into: person, storePath: storePath)
          if summary.changedStore {
            lines.append("account \(account.id) (\(account.title)): \(KalendsCommand.Account.Sync.words(summary))")
          }
        } catch {
          lines.append("account \(account.id) (\(account.title)): sync failed: \(error)")
        }
        synced.withLock { $0[account.id] = now }
      }
      return lines
    }
  }
}
