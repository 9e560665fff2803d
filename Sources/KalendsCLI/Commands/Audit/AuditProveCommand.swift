import ArgumentParser
import Foundation
import Kalends
import KalendsCommandSupport
import KalendsFormats

extension KalendsCommand.Audit {
  /// `kalends audit prove`: a record's proof bundle, checkable without the store.
  struct Prove: ParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "prove",
      abstract: "Write a proof that a record is in the log, checkable offline (C2SP tlog-proof).",
      discussion: """
        The bundle holds the record's bytes, its leaf index, its inclusion path and the latest kept \
        checkpoint (or the one of --size), which must cover the record: sign one first (kalends \
        checkpoint). Check it anywhere with kalends audit check-proof FILE --key VKEY.
        """)

    @OptionGroup var global: GlobalOptions

    @Argument(help: "The record's position.") var position: UInt64

    @Option(help: "Prove against the kept checkpoint of this tree size (default: the latest).") var size: UInt64?

    @Option(help: ArgumentHelp("Write the bundle to a file (default: standard output).", valueName: "file"))
    var out: String?

    func run() throws {
      let store = try global.openStore(readOnly: true, for: "prove records of the log")
      var checkpoint: SignedNote?
      if let size {
        guard let kept = try store.checkpoint(size: size) else {
          throw CLIError(message: "no checkpoint is kept for size \(size)", status: .notFound)
        }
        checkpoint = kept
      }
      let proof = try store.proveRecord(at: LogPosition(position), against: checkpoint).description
      guard let out else { return print(proof, terminator: "") }
      guard FileManager.default.createFile(atPath: out, contents: Data(proof.utf8)) else {
        throw CLIError(message: "cannot write \(out)", status: .storage)
      }
    }
  }
}
