package import ArgumentParser
import Foundation
import Kalends
import KalendsFormats

/// How the `kalends` executables run a command line: the same checks before parsing, and every
/// failure as one `error: …` line on standard error with the exit status of its class.
package enum CommandRunner {
  /// Parses `arguments` as `root`'s command line and runs the command it names, after `prepare`
  /// (which may refuse); a failure exits with its status (``ExitStatus``).
  package static func run(
    _ root: any ParsableCommand.Type, arguments: [String], prepare: @Sendable () throws -> Void = {}
  ) async {
    MemoryFaultGuard.install()
    rejectArgumentsThatAreNotUTF8()
    do {
      var command = try root.parseAsRoot(arguments)
      // Help is a command ArgumentParser itself parses to, and stays readable whatever `prepare` says.
      if !String(reflecting: type(of: command)).hasPrefix("ArgumentParser.") { try prepare() }
      if var asynchronous = command as? any AsyncParsableCommand {
        try await asynchronous.run()
      } else {
        try command.run()
      }
    } catch let error as StoreError {
      // On the command line an app is who `--as` names: the way out is to leave it off.
      if case .access(.ownerOnly(let what)) = error {
        fail("only the store's owner may \(what) — run it without --as", status: ExitStatus(error.category))
      }
      fail(error.description, status: ExitStatus(error.category))
    } catch let error as any CategorizedFailure {
      // The command line's own, the server's, any front end's: its words and its class.
      fail(error.message, status: ExitStatus(error.category))
    } catch let error as ProofFailure {
      fail("the proof does not hold: \(error)", status: .integrity)
    } catch let error as NoteError {
      switch error {
      case .malformed: fail(error.description, status: .invalidInput)
      case .notSignedBy, .badSignature: fail(error.description, status: .integrity)
      }
    } catch {
      root.exit(withError: error)
    }
  }

  /// Swift repairs arguments that are not UTF-8 with U+FFFD; refuse them instead, before they
  /// reach the store as text nobody typed.
  static func rejectArgumentsThatAreNotUTF8() {
    for index in 1..<Int(CommandLine.argc) {
      guard let raw = CommandLine.unsafeArgv[index], String(validatingCString: raw) == nil else { continue }
      fail("argument \(index) is not valid UTF-8 — pass text in UTF-8", status: .invalidInput)
    }
  }

  /// Prints `error: message` on standard error and exits with `status`.
  package static func fail(_ message: String, status: ExitStatus) -> Never {
    FileHandle.standardError.write(Data("error: \(message)\n".utf8))
    Foundation.exit(status.rawValue)
  }
}
