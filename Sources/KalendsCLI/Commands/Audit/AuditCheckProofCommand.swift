import ArgumentParser
import Foundation
import Kalends
import KalendsCommandSupport
import KalendsFormats

extension KalendsCommand.Audit {
  /// `kalends audit check-proof`: checks a proof bundle with no store.
  struct CheckProof: ParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "check-proof",
      abstract: "Check a record's proof bundle without any store, and print the record.",
      discussion: """
        Needs only the bundle and the log's verifier key: the checkpoint must be signed by --key (for \
        --origin, when given) and cosigned by --quorum of the --witness keys, the record's bytes must \
        hash to the hash it carries, and its inclusion path must lead to the checkpoint's root. Exits 0 and prints the record when all holds, 69 saying \
        what fails otherwise.
        """)

    @Argument(help: "The proof bundle (.tlog-proof).") var file: String

    @Option(help: ArgumentHelp("The log's verifier key (NAME+KEYID+KEY).", valueName: "vkey")) var key: String

    @Option(help: "The log's origin the checkpoint must name (kalends/<store id>).") var origin: String?

    @OptionGroup var witnesses: WitnessPolicy

    @Option(help: "Output format.") var format: ObjectFormat = .configured

    func run() throws {
      let verifier = try NoteVerifier(key)
      guard let data = FileManager.default.contents(atPath: file), let text = String(data: data, encoding: .utf8) else {
        throw CLIError(message: "cannot read the proof bundle \(file)", status: .notFound)
      }
      let proof = try RecordProof(parsing: text)
      let (record, checkpoint) = try proof.check(logKey: verifier, origin: origin)
      try witnesses.check(proof.checkpoint)
      switch format {
      case .json:
        print(
          JSONValue.object(
            [
              ("proven", .bool(true)), ("origin", .string(checkpoint.origin)),
              ("treeSize", .number(Double(checkpoint.treeHead.size))),
              ("treeRoot", .string(checkpoint.treeHead.root.hex)), ("record", try record.json()),
            ]
          ).rendered())
      case .table:
        print(
          "ok: record \(record.position) is in \(checkpoint.origin) of \(checkpoint.treeHead.size) records, "
            + "checkpoint signed by \(verifier.name)")
        print(try RecordTable.renderDetail(record))
      }
    }
  }
}
