import ArgumentParser
import Kalends
import KalendsCommandSupport
import KalendsFormats

extension KalendsCommand.Log {
  /// `kalends log tail`: the last records.
  struct Tail: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "tail", abstract: "Print the last records of the log.")

    @OptionGroup var global: GlobalOptions

    @Option(name: .short, help: "How many records.") var n: Int = 10

    @Option(
      name: .customLong("kind"),
      help: ArgumentHelp(
        "Only records of this kind, by name (accessDecided, eventSaved, …; repeatable).", valueName: "kind"))
    var kinds: [String] = []

    @Option(help: "Output format: table, json (an array) or jsonl (one record per line).")
    var format: OutputFormat = .configured

    func validate() throws {
      guard n >= 0 else { throw ValidationError("-n must be zero or more") }
      for kind in kinds where RecordKind(name: kind) == nil {
        throw ValidationError(
          "--kind \(kind) is no record kind — the kinds are in docs/log-format.md (accessDecided, …)")
      }
    }

    func run() throws {
      let store = try global.openStore(readOnly: true, for: "read the log")
      let wanted = kinds.isEmpty ? nil : Set(kinds.compactMap(RecordKind.init(name:)))
      let records = try store.lastRecords(n, ofKinds: wanted)
      switch format {
      case .json: print(JSONValue.array(try records.map { try $0.json() }).rendered())
      case .jsonl: for record in records { print(try record.json().rendered()) }
      case .table: print(try RecordTable.render(records))
      }
    }
  }
}
