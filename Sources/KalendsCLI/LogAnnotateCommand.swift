import ArgumentParser
import Foundation
import Kalends

/// `kalends log annotate`: appends notes (`annotationAdded` records).
struct LogAnnotateCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "annotate",
    abstract: "Append notes to the log: each argument, or each line of standard input, is one record.",
    discussion: """
      All notes are committed in one transaction (all or none) unless --batch-size splits them; \
      --batch-size 1 commits each note durably on its own.
      """)

  @OptionGroup var global: GlobalOptions

  @Argument(help: "The notes. With none, notes are read from standard input, one per line.")
  var notes: [String] = []

  @Option(help: "Commit every N notes instead of all at once.") var batchSize: Int?

  @Option(help: "Output format for the appended records' positions.") var format: ObjectFormat = .table

  func validate() throws {
    if let batchSize, batchSize < 1 { throw ValidationError("--batch-size must be 1 or more") }
  }

  func run() throws {
    var texts = notes
    if texts.isEmpty {
      while let line = readLine(strippingNewline: true) { texts.append(line) }
    }
    guard !texts.isEmpty else { throw CLIError.invalidInput("no notes given") }
    for (index, text) in texts.enumerated() where text.isEmpty {
      throw CLIError.invalidInput("note \(index + 1) is empty")
    }
    let store = try global.openStore()
    let size = batchSize ?? texts.count
    var headers: [LogRecordHeader] = []
    for start in stride(from: 0, to: texts.count, by: size) {
      let batch = texts[start..<min(start + size, texts.count)].map { RecordDraft.annotation($0) }
      let appended = try store.append(contentsOf: batch)
      headers += appended
      if format == .table { for header in appended { print("\(header.position) \(header.hash.shortHex)") } }
    }
    if format == .json {
      let items = headers.map {
        JSONValue.object([("position", .number(Double($0.position.rawValue))), ("hash", .string($0.hash.hex))])
      }
      print(JSONValue.array(items).rendered())
    }
  }
}
