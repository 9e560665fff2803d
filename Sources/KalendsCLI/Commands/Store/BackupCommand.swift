import ArgumentParser
import Foundation
import Kalends
import KalendsCommandSupport
import KalendsFormats

extension KalendsCommand {
  /// `kalends backup DEST`: a consistent copy of the store while writers run.
  struct Backup: ParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "backup",
      abstract: "Copy the store, consistent and compacted, into a new directory while writers go on.",
      discussion: """
        The copy holds every record committed before it began and nothing after; it is a complete \
        store (check it with `kalends verify --store DEST`). To restore: stop every writer, move the \
        damaged store aside, and copy the backup directory in its place.
        """)

    @OptionGroup var global: GlobalOptions

    @Argument(help: ArgumentHelp("A new (or empty) directory for the copy.", valueName: "dest"))
    var destination: String

    @Option(help: "Output format.") var format: ObjectFormat = .configured

    func run() throws {
      let store = try global.openStore(readOnly: true, for: "back up the store")
      let head = try store.backup(to: destination)
      let attributes = try? FileManager.default.attributesOfItem(atPath: destination + "/data.mdb")
      let bytes = (attributes?[.size] as? NSNumber)?.intValue ?? 0
      switch format {
      case .json:
        print(
          JSONValue.object([
            ("path", .string(destination)), ("head", .number(Double(head.position.rawValue))),
            ("headHash", .string(head.hash.hex)), ("bytes", .number(Double(bytes))),
          ]).rendered())
      case .table:
        print("backed up to \(destination): head \(head.position) \(head.hash), \(bytes) bytes")
      }
    }
  }
}
