import ArgumentParser
import Kalends
import KalendsCommandSupport
import KalendsFormats

/// `--witness VKEY… --quorum N`: how many of which witnesses must have cosigned a checkpoint
/// before it is trusted.
struct WitnessPolicy: ParsableArguments {
  @Option(
    name: .customLong("witness"),
    help: ArgumentHelp("A witness's verifier key (repeatable) whose cosignature counts.", valueName: "vkey"))
  var witnesses: [String] = []

  @Option(help: "How many of the --witness keys must have cosigned (default: all of them).") var quorum: Int?

  /// Checks that `note` carries at least the quorum of cosignatures.
  func check(_ note: SignedNote) throws {
    guard !witnesses.isEmpty || quorum != nil else { return }
    let keys = try self.keys()
    try note.verifyCosignatures(by: keys, quorum: quorum ?? keys.count)
  }

  /// The witnesses' keys, each a cosigner's, with a quorum among them.
  func keys() throws -> [NoteVerifier] {
    let keys = try witnesses.map { text throws in try NoteVerifier(text) }
    guard keys.allSatisfy(\.isCosigner) else {
      throw CLIError(message: "a --witness key must be a cosigner key (type 0x04)", status: .invalidInput)
    }
    let needed = quorum ?? keys.count
    guard needed >= 0, needed <= keys.count else {
      throw CLIError(message: "--quorum must be between 0 and the number of --witness keys", status: .usage)
    }
    return keys
  }
}
