import ArgumentParser
import Foundation
@_spi(Internals) import Kalends
import KalendsCommandSupport
import KalendsFormats

extension Harness.Torture {
  /// `kalends-harness torture check`: compares a store with the journals of the writers that wrote it.
  struct Check: ParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "check",
      abstract: "Check that a store holds every acknowledged command whole and no command in part.",
      discussion: """
        Attributes every record after the first to the command whose token it carries. Fails (exit \
        69) when an acknowledged command's records are missing or not where it was told (lost), when \
        a command's records are there only in part (partial: what was not acknowledged must be there \
        whole or not at all), when a record belongs to no command (unattributed), when a writer \
        reported a failure, or when the shared counter does not count every acknowledged increment.
        """)

    @OptionGroup var global: GlobalOptions

    @Option(name: .long, help: ArgumentHelp("A writer's journal (repeatable).", valueName: "file"))
    var journal: [String]

    @Option(help: ArgumentHelp("The shared counter event to check.", valueName: "id")) var counter: String?

    func run() throws {
      var journal = TortureJournal()
      for path in self.journal {
        guard let data = FileManager.default.contents(atPath: path) else {
          throw CLIError(message: "cannot read the journal \(path) — check the path", status: .notFound)
        }
        journal.read(Substring(decoding: data, as: UTF8.self))
      }
      let store = try global.openStore(readOnly: true, for: "check the store")
      var found: [String: [UInt64]] = [:]
      var unattributed: [UInt64] = []
      try store.replay(from: 2) { header, payload in
        let tokens = Set(TortureJournal.tokens(in: payload.withUnsafeBytes { Array($0) }))
        if tokens.isEmpty { unattributed.append(header.position.rawValue) }
        for token in tokens { found[token, default: []].append(header.position.rawValue) }
        return .continue
      }
      var summary = TortureCheckSummary()
      let byMatch = Dictionary(grouping: journal.commands.values, by: \.match)
      for (match, positions) in found where byMatch[match] == nil { unattributed += positions }
      for (match, commands) in byMatch {
        summary.add(match: match, commands: commands, found: found[match] ?? [])
      }
      summary.unattributed = unattributed.count
      summary.conflictsReported = journal.conflicts
      summary.writerFailures = journal.failures
      if let counter {
        let id = try ObjectID(argument: counter, option: "--counter")
        let title = try EventStore(store: store).event(withID: id)?.title ?? "missing"
        summary.checkCounter(title, commands: journal.commands.values.filter { $0.kind == "counter" })
      }
      print(summary.json.rendered())
      if !summary.problems.isEmpty {
        throw CLIError(message: summary.problems.prefix(5).joined(separator: "; "), status: .integrity)
      }
    }
  }
}
