import ArgumentParser
import Foundation
import Kalends
import KalendsCommandSupport
import KalendsFormats

extension KalendsCommand.Audit {
  /// `kalends audit verify`: the chain, the permission projection, and optionally that the log
  /// extends a checkpoint kept from before.
  struct Verify: ParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "verify",
      abstract: "Prove the history was not altered: the chain is intact and the permissions equal a replay.",
      discussion: """
        With --since FILE (a signed checkpoint kept from before, outside the store) and --key (the log's \
        verifier key), also proves that the log extends it: the checkpoint is signed by that key for this \
        store (and cosigned by --quorum of the --witness keys), and the records' own hashes, recomputed, \
        make its tree at its size — a log rewritten and \
        re-chained since, dropped records, reordered or cut off, fails. Exits 69 naming the first \
        damaged position, the checkpoint the log does not extend, or the divergent projection database.
        """)

    @OptionGroup var global: GlobalOptions

    @Option(help: ArgumentHelp("A signed checkpoint kept from before (a file).", valueName: "file"))
    var since: String?

    @Option(help: ArgumentHelp("The log's verifier key (NAME+KEYID+KEY), for --since.", valueName: "vkey"))
    var key: String?

    @OptionGroup var witnesses: WitnessPolicy

    @Option(help: "Output format.") var format: ObjectFormat = .configured

    func run() throws {
      let kept = try since.map { path throws in try Self.checkpoint(at: path, key: key, witnesses: witnesses) }
      let store = try global.openStore(readOnly: true, for: "verify the audit")
      let report = try kept.map { try store.verify(since: $0) } ?? store.verify()
      if let problem = report.problem {
        CommandRunner.fail(
          "the log is damaged at position \(problem.position) (\(problem.kind.rawValue)): \(problem.detail)",
          status: .integrity)
      }
      let projections = try store.verifyProjections()
      let permissions = projections.live.keys.filter { $0.hasPrefix("permissions.") }.sorted()
      let divergent = projections.divergent.filter { $0.hasPrefix("permissions.") }
      var fields: [(String, JSONValue)] = [
        ("intact", .bool(divergent.isEmpty)), ("recordsChecked", .number(Double(report.recordsChecked))),
        ("headHash", .string(report.verifiedHead.hash.hex)), ("databases", .array(permissions.map { .string($0) })),
        ("divergent", .array(divergent.map { .string($0) })),
      ]
      if let kept { fields.append(("extends", .number(Double(kept.treeHead.size)))) }
      format.write(fields)
      if !divergent.isEmpty {
        CommandRunner.fail(
          "the permission projection differs from a replay of the log: \(divergent.joined(separator: ", ")) — run kalends rebuild",
          status: .integrity)
      }
    }

    /// The checkpoint in the file at `path`, checked against the verifier key `key`.
    static func checkpoint(at path: String, key: String?, witnesses: WitnessPolicy) throws -> Kalends.Checkpoint {
      guard let key else { throw CLIError(message: "--since needs --key, the log's verifier key", status: .usage) }
      let verifier = try NoteVerifier(key)
      guard let data = FileManager.default.contents(atPath: path), let text = String(data: data, encoding: .utf8) else {
        throw CLIError(message: "cannot read the checkpoint file \(path)", status: .notFound)
      }
      let note = try SignedNote(parsing: text)
      let checkpoint = try Kalends.Checkpoint.verified(note, by: verifier)
      try witnesses.check(note)
      return checkpoint
    }
  }
}
