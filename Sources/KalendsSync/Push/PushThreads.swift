import NIOCore
import NIOPosix

#if canImport(Glibc)
  import Glibc
#endif

/// The threads WebDAV-Push delivery runs on, apart from the rest of `kalends serve`: three event
/// loops, each a thread at a lower CPU priority than the process's others (nice 10). Looking at
/// the registrations after a commit and encrypting messages for many of them is work that can
/// wait a few milliseconds: it yields the machine to the store's writers and requests, and takes
/// what they leave.
///
/// Made once per process and never shut down, as NIO's shared loops.
enum PushThreads {
  /// Where senders run, each on one loop with its connections (``EventLoopExecutor``): their
  /// writes and answers change no threads.
  static let senders: [EventLoopExecutor] = Array(loops.prefix(2))

  /// Where the looks after commits run, one at a time.
  static let looks: EventLoopExecutor = loops[2]

  private static let loops: [EventLoopExecutor] = {
    let group = MultiThreadedEventLoopGroup(numberOfThreads: 3)
    return group.makeIterator().map { loop in
      // Per thread on Linux: `who` 0 is the calling thread.
      loop.execute { _ = setpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0, 10) }
      return EventLoopExecutor(loop)
    }
  }()
}
