import ArgumentParser
import Foundation
import Kalends
import KalendsCommandSupport
import KalendsFormats

extension KalendsCommand.Log {
  /// `kalends log annotate`: appends notes (`annotationAdded` records).
  struct Annotate: ParsableCommand {
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

    @Option(help: "Output format for the appended records' positions.") var format: ObjectFormat = .configured

    func validate() throws {
      if let batchSize, batchSize < 1 { throw ValidationError("--batch-size must be 1 or more") }
    }

    /// The lines of standard input, each of which must be UTF-8 (not repaired into U+FFFD).
    static func standardInputLines() throws -> [String] {
      let bytes = FileHandle.standardInput.readDataToEndOfFile()
      var lines = bytes.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false)
      if lines.last?.isEmpty == true { lines.removeLast() }
      return try lines.enumerated().map { index, line in
        let text = line.last == UInt8(ascii: "\r") ? line.dropLast() : line[...]
        guard let decoded = String(validating: text, as: UTF8.self) else {
          throw CLIError.invalidInput("line \(index + 1) of standard input is not valid UTF-8 — pass text in UTF-8")
        }
        return decoded
      }
    }

    func run() throws {
      var texts = notes
      if texts.isEmpty { texts = try Self.standardInputLines() }
      guard !texts.isEmpty else { throw CLIError.invalidInput("no notes given") }
      for (index, text) in texts.enumerated() where text.isEmpty {
        throw CLIError.invalidInput("note \(index + 1) is empty")
      }
      for (index, text) in texts.enumerated() where text.utf8.contains(0) {
        throw CLIError.invalidInput("note \(index + 1) holds a NUL character — remove it")
      }
      let store = try global.openStore(for: "write notes into the log")
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
}
