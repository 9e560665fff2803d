internal import Platform
import Synchronization

/// A readers–writer lock. Transactions hold it shared; remapping the file holds it exclusively.
///
/// A thread waiting for the exclusive lock holds back threads that do not hold the lock yet, so a
/// stream of short transactions cannot starve a remap (a big write that needs a larger map would
/// otherwise wait until its timeout while small ones keep fitting). A thread that already holds the
/// lock shared may take it shared again (a read inside a write) without waiting.
final class ReadWriteLock: @unchecked Sendable {
  private let lock: UnsafeMutablePointer<pthread_rwlock_t>
  /// Threads waiting for the exclusive lock.
  private let waitingExclusive = Atomic<Int>(0)
  /// How many times the current thread holds the lock shared.
  private var depthKey = pthread_key_t()

  init() {
    lock = .allocate(capacity: 1)
    lock.initialize(to: pthread_rwlock_t())
    let rc = pthread_rwlock_init(lock, nil)
    precondition(rc == 0, "pthread_rwlock_init failed: \(rc)")
    let keyRC = pthread_key_create(&depthKey, nil)
    precondition(keyRC == 0, "pthread_key_create failed: \(keyRC)")
  }

  deinit {
    pthread_key_delete(depthKey)
    pthread_rwlock_destroy(lock)
    lock.deallocate()
  }

  private var depth: Int {
    get { Int(bitPattern: pthread_getspecific(depthKey)) }
    set { pthread_setspecific(depthKey, UnsafeRawPointer(bitPattern: newValue)) }
  }

  /// Whether the current thread holds the lock shared (an exclusive lock would wait for itself).
  var isHeldSharedByCurrentThread: Bool { depth > 0 }

  func lockShared() {
    let held = depth
    if held == 0 {
      var request = timespec(tv_sec: 0, tv_nsec: 50_000)
      while waitingExclusive.load(ordering: .acquiring) > 0 { nanosleep(&request, nil) }
    }
    let rc = pthread_rwlock_rdlock(lock)
    precondition(rc == 0, "pthread_rwlock_rdlock failed: \(rc)")
    depth = held + 1
  }

  func unlockShared() {
    depth -= 1
    let rc = pthread_rwlock_unlock(lock)
    precondition(rc == 0, "pthread_rwlock_unlock failed: \(rc)")
  }

  /// Tries to take the lock exclusively, waiting up to `timeout` nanoseconds. New shared holders
  /// wait meanwhile, so only the transactions already running delay it.
  func tryLockExclusive(timeoutNanoseconds: UInt64) -> Bool {
    waitingExclusive.add(1, ordering: .releasing)
    defer { waitingExclusive.subtract(1, ordering: .releasing) }
    var waited: UInt64 = 0
    var pause: UInt64 = 20_000
    while pthread_rwlock_trywrlock(lock) != 0 {
      if waited >= timeoutNanoseconds { return false }
      var request = timespec(tv_sec: 0, tv_nsec: Int(pause))
      nanosleep(&request, nil)
      waited += pause
      pause = min(pause * 2, 1_000_000)
    }
    return true
  }

  func unlockExclusive() {
    let rc = pthread_rwlock_unlock(lock)
    precondition(rc == 0, "pthread_rwlock_unlock failed: \(rc)")
  }
}
