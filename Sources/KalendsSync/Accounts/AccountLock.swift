import Foundation
import Kalends

/// One sync of an account at a time, across processes: an exclusive `flock` on
/// `STORE/accounts/ID.lock`, held for the whole sync. Two syncs of one account at once (the
/// person's `account sync` while `kalends serve` syncs) would send the same change twice, the
/// second refused as a precondition failed and taken for a conflict; the second waits instead.
/// The kernel drops the lock with its process, so a sync killed leaves nothing to clean.
final class AccountLock {
  private let descriptor: Int32

  /// Waits until this process holds the lock of the account `id` of the store at `storePath`,
  /// looking again every 100 ms.
  init(forAccount id: ObjectID, store storePath: String) async throws(AccountError) {
    let directory = storePath + "/accounts"
    try? FileManager.default.createDirectory(
      atPath: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
    let path = directory + "/" + id.description + ".lock"
    let descriptor = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
    guard descriptor >= 0 else { throw .credentials("\(path) cannot be opened (errno \(errno))") }
    while flock(descriptor, LOCK_EX | LOCK_NB) != 0 {
      guard errno == EWOULDBLOCK || errno == EINTR else {
        close(descriptor)
        throw .credentials("\(path) cannot be locked (errno \(errno))")
      }
      try? await Task.sleep(for: .milliseconds(100))
    }
    self.descriptor = descriptor
  }

  deinit {
    close(descriptor)
  }
}
