import Foundation

/// Turns a memory fault into the CLI's integrity failure: LMDB trusts the pages it maps, so a data
/// file damaged in a way `verify`'s page check did not see, or damaged while a command runs, can
/// make a read fault. The command then stops with one `error:` line and exit status 69 instead of a
/// crash report.
enum MemoryFaultGuard {
  /// Installs the handler for SIGSEGV and SIGBUS.
  static func install() {
    var action = sigaction()
    action.__sigaction_handler.sa_handler = { _ in
      let message: StaticString = """
        error: kalends stopped on a memory fault while reading the store; its data file is probably \
        damaged — run `kalends verify`, and restore from a backup if it fails

        """
      _ = write(2, message.utf8Start, message.utf8CodeUnitCount)
      _exit(ExitStatus.integrity.rawValue)
    }
    sigemptyset(&action.sa_mask)
    action.sa_flags = Int32(truncatingIfNeeded: SA_RESETHAND)
    sigaction(SIGSEGV, &action, nil)
    sigaction(SIGBUS, &action, nil)
  }
}
