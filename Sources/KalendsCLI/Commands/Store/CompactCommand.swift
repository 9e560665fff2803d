import ArgumentParser
import Kalends
import KalendsCommandSupport
import KalendsFormats

extension KalendsCommand {
  /// `kalends compact`: rewrites the data file without its free pages, erased content among them.
  struct Compact: ParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "compact",
      abstract: "Rewrite the store's data file without its free pages, and zero the old one.",
      discussion: """
        After `kalends erase`, the erased bytes stay in data.mdb until LMDB reuses their pages; \
        compaction removes them at once: it copies the live pages into a new file, puts it in place \
        and overwrites the old file with zeros. It needs the store alone: stop the server and every \
        other process using the store first (it refuses otherwise, exit 67).
        """)

    @OptionGroup var global: GlobalOptions

    @Option(help: "Output format.") var format: ObjectFormat = .configured

    func run() throws {
      let compaction = try Store.compact(at: global.storePath)
      switch format {
      case .json:
        print(
          JSONValue.object([
            ("bytesBefore", .number(Double(compaction.bytesBefore))),
            ("bytesAfter", .number(Double(compaction.bytesAfter))),
            ("head", .number(Double(compaction.head.position.rawValue))),
            ("headHash", .string(compaction.head.hash.hex)),
          ]).rendered())
      case .table:
        print(
          "compacted \(global.storePath): \(compaction.bytesBefore) → \(compaction.bytesAfter) bytes, "
            + "head \(compaction.head.position) \(compaction.head.hash)")
      }
    }
  }
}
