import ArgumentParser
import Foundation
import Kalends
import KalendsCommandSupport
import KalendsFormats

extension KalendsCommand {
  /// `kalends checkpoint`: signed checkpoints of the log's tree.
  struct Checkpoint: ParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "checkpoint",
      abstract: "Sign, show and list checkpoints of the log's Merkle tree (C2SP tlog-checkpoint).",
      discussion: """
        A checkpoint states the log's origin (kalends/<store id>), its size and its tree's root, signed \
        as a C2SP signed note. Checkpoints never go back and never fork: the store refuses to sign a tree \
        whose root at the size of its latest checkpoint is not the one signed there. With \
        $KALENDS_CHECKPOINT_KEY naming a key file, every command that writes also signs one.
        """,
      subcommands: [Sign.self, Show.self, List.self], defaultSubcommand: Sign.self)
  }
}

extension KalendsCommand.Checkpoint {
  /// `kalends checkpoint sign`: signs the current head, and has witnesses cosign it.
  struct Sign: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "sign", abstract: "Sign a checkpoint of the log's head, keep it in the store and print it.",
      discussion: """
        With --witness URL (repeatable), the checkpoint is then submitted to each witness (C2SP \
        tlog-witness add-checkpoint, with the consistency proof from the size the witness knows) and \
        their cosignatures are kept with it. A witness that refuses fails the command (exit 69); one \
        that cannot be reached, does not answer within 30 s or answers more than 64 KiB, with exit 66. \
        https is checked against the system's roots (SSL_CERT_FILE names others); no redirect is \
        followed.
        """)

    @OptionGroup var global: GlobalOptions

    @Option(help: ArgumentHelp("The private key file (default: $KALENDS_CHECKPOINT_KEY).", valueName: "file"))
    var key: String?

    @Option(
      name: .customLong("witness"),
      help: ArgumentHelp("A witness's URL prefix (repeatable) to cosign the checkpoint.", valueName: "url"))
    var witnesses: [String] = []

    func run() async throws {
      guard let signer = try key.map(KeyFile.read) ?? KeyFile.configured() else {
        throw CLIError(
          message: "no key: pass --key FILE or set $\(KeyFile.environmentVariable) (kalends key generate makes one)",
          status: .usage)
      }
      try global.requireOwner("sign checkpoints of the log")
      let store = try GlobalOptions.open(global.storePath, readOnly: false, signer: nil)
      var note = try store.checkpoint(signer: signer)
      let size = try Kalends.Checkpoint(parsing: note.text).treeHead.size
      for witness in witnesses {
        guard let url = URL(string: witness), url.scheme == "http" || url.scheme == "https" else {
          throw CLIError(message: "--witness takes an http or https URL: \(witness)", status: .usage)
        }
        let cosignatures = try await WitnessSubmission.cosignatures(of: note, from: url, store: store)
        note = try store.addCosignatures(cosignatures, toCheckpointOfSize: size)
      }
      print(note, terminator: "")
    }
  }

  /// `kalends checkpoint show`: one kept checkpoint.
  struct Show: ParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "show", abstract: "Print a kept checkpoint: the latest, or the one of --size.")

    @OptionGroup var global: GlobalOptions

    @Option(help: "The tree size of the checkpoint (default: the latest).") var size: UInt64?

    func run() throws {
      let store = try global.openStore(readOnly: true, for: "read the log's checkpoints")
      let note = try size.map { try store.checkpoint(size: $0) } ?? store.latestCheckpoint()
      guard let note else {
        throw CLIError(
          message: size.map { "no checkpoint is kept for size \($0)" }
            ?? "no checkpoint is kept yet — kalends checkpoint sign",
          status: .notFound)
      }
      print(note, terminator: "")
    }
  }

  /// `kalends checkpoint list`: the sizes of the kept checkpoints.
  struct List: ParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "list", abstract: "List the tree sizes of the kept checkpoints, oldest first.")

    @OptionGroup var global: GlobalOptions

    func run() throws {
      let store = try global.openStore(readOnly: true, for: "read the log's checkpoints")
      for size in try store.checkpointSizes() { print(size) }
    }
  }
}
