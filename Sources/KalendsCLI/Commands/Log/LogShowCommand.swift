import ArgumentParser
import Kalends
import KalendsCommandSupport
import KalendsFormats

extension KalendsCommand.Log {
  /// `kalends log show`: one record in full.
  struct Show: ParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "show", abstract: "Print one record in full: header, payload fields and hashes.")

    @OptionGroup var global: GlobalOptions

    @Argument(help: "The record's position (1 is the first).") var position: UInt64

    @Option(help: "Output format.") var format: ObjectFormat = .configured

    func run() throws {
      let store = try global.openStore(readOnly: true, for: "read the log")
      let record = try store.record(at: LogPosition(position))
      switch format {
      case .json: print(try record.json().rendered())
      case .table: print(try RecordTable.renderDetail(record))
      }
    }
  }
}
