import ArgumentParser
import Foundation
import Kalends
import KalendsCommandSupport
import KalendsFormats

extension KalendsCommand {
  /// `kalends key`: the keys that sign checkpoints of the log's tree.
  struct Key: ParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "key",
      abstract: "Create the key that signs checkpoints of the log (kept outside the store).",
      subcommands: [Generate.self, Verifier.self])
  }
}

extension KalendsCommand.Key {
  /// `kalends key generate`: a new Ed25519 signed-note key.
  struct Generate: ParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "generate",
      abstract: "Write a new private key to a file (mode 0600) and print its verifier key.",
      discussion: """
        The private key is written as PRIVATE+KEY+NAME+KEYID+KEY (Go's signed-note form) to --out, \
        which must not exist; keep it outside the store and away from anyone who can write the store's \
        files. The verifier key printed, NAME+KEYID+KEY (C2SP signed-note), is what auditors and \
        witnesses configure. NAME defaults to the store's origin, kalends/<store id>, as C2SP recommends \
        for a log's key.
        """)

    @OptionGroup var global: GlobalOptions

    @Argument(help: "The key's name (no spaces or +; default: the store's origin).") var name: String?

    @Option(help: ArgumentHelp("Where to write the private key (a new file).", valueName: "file")) var out: String

    @Flag(help: "A witness's key, for timestamped cosignatures (C2SP tlog-cosignature, type 0x04).")
    var cosigner = false

    func run() throws {
      if cosigner && name == nil {
        throw CLIError(message: "a witness's key needs a NAME (its own, such as witness.example/w1)", status: .usage)
      }
      let keyName = try name ?? global.openStore(readOnly: true, for: "name a key after the store").origin
      let signer = try CheckpointSigner.generate(name: keyName, isCosigner: cosigner)
      try KeyFile.write(signer, to: out)
      print(signer.verifier)
    }
  }
}

extension KalendsCommand.Key {
  /// `kalends key verifier`: the public half of a private key file.
  struct Verifier: ParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "verifier", abstract: "Print the verifier key (NAME+KEYID+KEY) of a private key file.")

    @Argument(help: "The private key file.") var file: String

    func run() throws {
      print(try KeyFile.read(file).verifier)
    }
  }
}
