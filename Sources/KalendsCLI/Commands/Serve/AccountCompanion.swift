import Kalends
import KalendsServer
import KalendsSync
import Synchronization

/// The sync of accounts while `kalends serve` runs: every minute it syncs each account whose
/// interval has passed since its last sync in this run, every account at start. A sync that
/// changed the store, or failed, is a line of the log.
enum AccountCompanion {
  static func make(storePath: String, every interval: Duration, checkEvery: Duration = .seconds(60)) -> Companion {
    let synced = Mutex<[ObjectID: Timestamp]>([:])
    let microseconds = interval.components.seconds * 1_000_000
    return Companion(interval: checkEvery, failure: "accounts could not be synced") { store in
      let person = EventStore(store: store)
      let now = store.now()
      let due = try person.accounts().filter { account in
        guard let last = synced.withLock({ $0[account.id] }) else { return true }
        return now.rawValue - last.rawValue >= microseconds
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
