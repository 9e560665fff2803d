import ArgumentParser
import Kalends

/// `kalends status`: what the store is and how big.
struct StatusCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "status", abstract: "Show the store's identity, head, size and readers.")

  @OptionGroup var global: GlobalOptions

  @Option(help: "Output format.") var format: ObjectFormat = .table

  func run() throws {
    let store = try global.openStore(readOnly: true)
    let status = try store.status()
    let fields: [(String, JSONValue)] =
      [
        ("path", .string(store.path)),
        ("storeId", .string(store.id.description)),
      ] + status.head.jsonFields + [
        ("fileBytes", .number(Double(status.fileSize))),
        ("usedBytes", .number(Double(status.usedSize))),
        ("mapBytes", .number(Double(status.mapSize))),
        ("readers", .number(Double(status.readers))),
      ]
    switch format {
    case .json: print(JSONValue.object(fields).rendered())
    case .table:
      print(TextTable.fields(fields.map { ($0.0, $0.1.plainText) }))
    }
  }
}
