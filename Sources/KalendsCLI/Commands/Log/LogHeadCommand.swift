import ArgumentParser
import Kalends
import KalendsCommandSupport

extension KalendsCommand.Log {
  /// `kalends log head`: the last position and its hash, which commits to the whole history.
  struct Head: ParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "head",
      abstract: "Print the last position and its hash (note it elsewhere to detect later rewrites).")

    @OptionGroup var global: GlobalOptions

    @Option(help: "Output format.") var format: ObjectFormat = .table

    func run() throws {
      let head = try global.openStore(readOnly: true, for: "read the log").head()
      switch format {
      case .json: print(JSONValue.object(head.jsonFields).rendered())
      case .table: print("\(head.position) \(head.hash)")
      }
    }
  }
}
