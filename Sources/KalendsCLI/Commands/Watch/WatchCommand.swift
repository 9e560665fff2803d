import ArgumentParser
import Foundation
import Kalends
import KalendsCommandSupport
import KalendsFormats

extension KalendsCommand {
  /// `kalends watch`: one line per change notice, until interrupted.
  struct Watch: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "watch",
      abstract: "Print what changes in the store, by any process, one line per notice, until interrupted.",
      discussion: """
        Without --from or --cursor it starts with the next change. With --from it first catches up \
        with the log from that position. With --cursor NAME it resumes after the position saved under \
        NAME and saves each notice's last position there once printed (see `kalends status`). With \
        --as CLIENT it hears only what that app's access lets it see, and ends (exit 68) when its access \
        is changed from outside the app.
        """)

    @OptionGroup var global: GlobalOptions

    @Option(help: ArgumentHelp("Catch up from this log position first.", valueName: "position"))
    var from: UInt64?

    @Option(help: ArgumentHelp("Resume from, and save to, the durable cursor NAME.", valueName: "name"))
    var cursor: String?

    @Option(help: ArgumentHelp("Stop after this many notices.", valueName: "count"))
    var limit: Int?

    @Option(help: "Output format: table or jsonl (one JSON object per notice).") var format: WatchFormat = .configured

    func validate() throws {
      if let limit, limit < 1 { throw ValidationError("--limit must be 1 or more") }
      if from == 0 { throw ValidationError("--from must be 1 or more (positions start at 1)") }
    }

    func run() async throws {
      let events = try global.openEventStore(readOnly: global.client == nil)
      let store = events.store
      try events.checkHearsChanges()
      var start = from.map { LogPosition($0) }
      if let cursor, start == nil { start = try store.changeCursor(cursor)?.resumePosition ?? 1 }
      var notices = events.changes(from: start).makeAsyncIterator()
      var printed = 0
      while let notice = try await notices.next() {
        let line = format == .jsonl ? notice.json.rendered() : notice.tableLine
        FileHandle.standardOutput.write(Data((line + "\n").utf8))
        if let cursor { try store.saveChangeCursor(cursor, at: notice.positions.upperBound) }
        printed += 1
        if let limit, printed >= limit { break }
      }
    }
  }
}

/// `--format` for `kalends watch`.
enum WatchFormat: String, ConfiguredFormat, ExpressibleByArgument, CaseIterable {
  case table
  case jsonl
}

extension ChangeNotice {
  /// `{"from":…,"to":…,"head":…,"origin":…,"catchUp":…,"refetchAll":…,"lastTimestamp":…,"changes":[…]}`.
  var json: JSONValue {
    .object([
      ("from", .number(Double(positions.lowerBound.rawValue))),
      ("to", .number(Double(positions.upperBound.rawValue))),
      ("head", .number(Double(head.rawValue))),
      ("origin", .string(origin.rawValue)),
      ("catchUp", .bool(isCatchUp)),
      ("refetchAll", .bool(refetchAll)),
      ("lastTimestamp", .string(lastTimestamp.description)),
      ("changes", changesJSON),
    ])
  }

  /// `12…15  other process  event 6F1C… added, calendar 0A3B… modified`.
  var tableLine: String {
    let range =
      positions.lowerBound == positions.upperBound
      ? "\(positions.lowerBound)" : "\(positions.lowerBound)…\(positions.upperBound)"
    let source =
      switch origin {
      case .thisProcess: "this process"
      case .otherProcess: "other process"
      case .mixed: "mixed"
      }
    let what =
      refetchAll
      ? "too much changed: refetch everything"
      : sortedChanges.map { "\($0.object) \($0.kind)" }.joined(separator: ", ")
    return "\(range)\t\(isCatchUp ? "history" : "live")\t\(source)\t\(what)"
  }
}
