import ArgumentParser
import Foundation
import Kalends
import KalendsCommandSupport
import KalendsFormats

extension KalendsCommand {
  /// `kalends rebuild`: drops the projections and replays the log into them.
  struct Rebuild: ParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "rebuild",
      abstract: "Drop every projection (objects, date-range index) and rebuild it from the log.",
      discussion: """
        The log is not touched. The rebuild commits in chunks; if it is interrupted, the next open of \
        the store finishes it. Prints how many records were replayed and how fast.
        """)

    @OptionGroup var global: GlobalOptions

    @Option(help: "Output format.") var format: ObjectFormat = .configured

    func run() throws {
      let store = try global.openStore(for: "rebuild the projections")
      let progress = ProgressLine(label: "rebuilding")
      let started = Date()
      let replayed = try store.rebuildProjections { state in
        switch state {
        case .reading(let done, let total):
          progress.update(done: done, total: total, label: "rebuilding: reading the log")
        case .writing(let done, let total):
          progress.update(done: done, total: total, label: "rebuilding: indexing and writing projections")
        case .tree(let done, let total):
          progress.update(done: done, total: total, label: "building the Merkle tree")
        }
      }
      progress.finish()
      let seconds = Date().timeIntervalSince(started)
      let rate = seconds > 0 ? Double(replayed) / seconds : 0
      let digests = try store.projectionDigests()
      switch format {
      case .json:
        let databases = digests.keys.sorted().map { name in
          (
            name,
            JSONValue.object([
              ("entries", .number(Double(digests[name]!.entries))), ("sha256", .string(digests[name]!.sha256)),
            ])
          )
        }
        print(
          JSONValue.object([
            ("recordsReplayed", .number(Double(replayed))), ("seconds", .number(seconds)),
            ("recordsPerSecond", .number(rate.rounded())), ("databases", .object(databases)),
          ]).rendered())
      case .table:
        print("rebuilt: \(replayed) records in \(String(format: "%.2f", seconds)) s (\(Int(rate)) records/s)")
        for name in digests.keys.sorted() { print("  \(name): \(digests[name]!)") }
      }
    }
  }
}
