#if canImport(Glibc)
  internal import Glibc
#elseif canImport(Musl)
  internal import Musl
#elseif canImport(Darwin)
  internal import Darwin
#endif

/// A readers–writer lock. Transactions hold it shared; remapping the file holds it exclusively.
final class ReadWriteLock: @unchecked Sendable {
  private let lock: UnsafeMutablePointer<pthread_rwlock_t>

  init() {
    lock = .allocate(capacity: 1)
    lock.initialize(to: pthread_rwlock_t())
    let rc = pthread_rwlock_init(lock, nil)
    precondition(rc == 0, "pthread_rwlock_init failed: \(rc)")
  }

  deinit {
    pthread_rwlock_destroy(lock)
    lock.deallocate()
  }

  func lockShared() {
    let rc = pthread_rwlock_rdlock(lock)
    precondition(rc == 0, "pthread_rwlock_rdlock failed: \(rc)")
  }

  /// Tries to take the lock exclusively, waiting up to `timeout` nanoseconds.
  func tryLockExclusive(timeoutNanoseconds: UInt64) -> Bool {
    var waited: UInt64 = 0
    var pause: UInt64 = 50_000
    while pthread_rwlock_trywrlock(lock) != 0 {
      if waited >= timeoutNanoseconds { return false }
      var request = timespec(tv_sec: 0, tv_nsec: Int(pause))
      nanosleep(&request, nil)
      waited += pause
      pause = min(pause * 2, 10_000_000)
    }
    return true
  }

  func unlock() {
    let rc = pthread_rwlock_unlock(lock)
    precondition(rc == 0, "pthread_rwlock_unlock failed: \(rc)")
  }
}
