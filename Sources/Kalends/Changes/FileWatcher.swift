internal import Platform

/// Blocks until a file is modified (Linux inotify) or a timeout passes.
///
/// Where inotify is unavailable (another platform, or the per-user limit of watches reached),
/// ``isWatching`` is false and ``wait(microseconds:)`` only sleeps: the caller polls.
struct FileWatcher: Sendable {
  private let descriptor: Int32

  /// Watches `path` for modifications.
  init(path: String) {
    #if os(Linux)
      let descriptor = inotify_init1(Int32(IN_CLOEXEC) | Int32(IN_NONBLOCK))
      if descriptor >= 0, inotify_add_watch(descriptor, path, UInt32(IN_MODIFY)) < 0 {
        Glibc.close(descriptor)
        self.descriptor = -1
      } else {
        self.descriptor = descriptor
      }
    #else
      self.descriptor = -1
    #endif
  }

  /// Whether modifications wake ``wait(microseconds:)``.
  var isWatching: Bool { descriptor >= 0 }

  /// Waits for a modification or `microseconds`, then drains the pending events. Returns whether
  /// a modification (rather than the timeout) ended the wait.
  @discardableResult
  func wait(microseconds: Int) -> Bool {
    #if os(Linux)
      guard descriptor >= 0 else {
        usleep(UInt32(microseconds))
        return false
      }
      var request = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
      // poll counts in milliseconds (and Glibc's module has no ppoll): a shorter wait sleeps, then
      // looks without waiting.
      let ready: Bool
      if microseconds < 1_000 {
        usleep(UInt32(microseconds))
        ready = poll(&request, 1, 0) > 0
      } else {
        ready = poll(&request, 1, Int32(clamping: microseconds / 1_000)) > 0
      }
      withUnsafeTemporaryAllocation(byteCount: 4_096, alignment: 8) { buffer in
        while read(descriptor, buffer.baseAddress, buffer.count) > 0 {}
      }
      return ready
    #else
      usleep(UInt32(microseconds))
      return false
    #endif
  }

  /// Stops watching.
  func close() {
    #if os(Linux)
      if descriptor >= 0 { Glibc.close(descriptor) }
    #endif
  }
}
