import ArgumentParser
import Foundation
import Kalends
import KalendsCommandSupport
import KalendsFormats

extension KalendsCommand {
  /// `kalends status`: what the store is and how big.
  struct Status: ParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "status",
      abstract:
        "Show the store's identity, head, tree, latest checkpoint, size, readers, subscriptions, accounts, push registrations, each watch cursor's lag, and where each fleet's stream stands."
    )

    @OptionGroup var global: GlobalOptions

    @Option(help: "Output format.") var format: ObjectFormat = .configured

    func run() throws {
      let store = try global.openStore(readOnly: true, for: "read the store status")
      let status = try store.status()
      let accounts = try KalendsCommand.Account.statuses(EventStore(store: store), storePath: store.path)
      let tree = try KalendsCommand.Log.Head.treeHead(of: store)
      let checkpoint = try store.latestCheckpoint().flatMap { try? Kalends.Checkpoint(parsing: $0.text) }
      let fields: [(String, JSONValue)] =
        [
          ("path", .string(store.path)),
          ("storeId", .string(store.id.description)),
          ("origin", .string(store.origin)),
        ] + status.head.jsonFields + (tree?.jsonFields ?? []) + [
          ("latestCheckpoint", checkpoint.map { .number(Double($0.treeHead.size)) } ?? .null),
          ("fileBytes", .number(Double(status.fileSize))),
          ("usedBytes", .number(Double(status.usedSize))),
          ("mapBytes", .number(Double(status.mapSize))),
          ("readers", .number(Double(status.readers))),
          ("subscriptions", .number(Double(try EventStore(store: store).subscriptions().count))),
          ("accounts", .number(Double(accounts.count))),
          ("pushRegistrations", .number(Double(try EventStore(store: store).pushRegistrations().count))),
        ]
      // Where each organisation's stream stands, behind the head as a cursor is.
      let publications = try store.publications().map { publication in
        (publication, behind: try store.lag(of: publication.position).records)
      }
      // A push that failed after the last one that succeeded (or before any did): said until one does.
      let published = Dictionary(publications.map { ($0.0.organisation, $0.0.time) }, uniquingKeysWith: max)
      let failures = try store.pushFailures().filter { organisation, failure in
        published[organisation].map { failure.time > $0 } ?? true
      }
      let cursors = try store.changeCursors().map { cursor in
        let lag = try store.lag(of: cursor.position)
        return (cursor, lag)
      }
      switch format {
      case .json:
        let cursorFields: JSONValue = .array(
          cursors.map { cursor, lag in
            .object([
              ("name", .string(cursor.name)), ("position", .number(Double(cursor.position.rawValue))),
              ("savedAt", .string(cursor.savedAt.description)), ("behindRecords", .number(Double(lag.records))),
              ("behindSeconds", .number((lag.seconds * 1000).rounded() / 1000)),
            ])
          })
        let fleet: JSONValue = .array(
          publications.map { publication, behind in
            .object([
              ("organisation", .string(publication.organisation)),
              ("published", .number(Double(publication.position.rawValue))),
              ("behindRecords", .number(Double(behind))),
              ("at", .string(publication.time.description)),
              ("checkpoint", publication.checkpoint.map { .number(Double($0)) } ?? .null),
              ("lastFailure", Self.failure(failures[publication.organisation])),
            ])
          }
            + failures.keys.sorted().filter { published[$0] == nil }.map { organisation in
              .object([
                ("organisation", .string(organisation)), ("published", .null), ("behindRecords", .null),
                ("at", .null), ("checkpoint", .null), ("lastFailure", Self.failure(failures[organisation])),
              ])
            })
        print(
          JSONValue.object(
            fields + [
              ("cursors", cursorFields), ("fleet", fleet),
              ("accountSync", .array(accounts.map { .object(KalendsCommand.Account.statusFields($0)) })),
            ]
          ).rendered())
      case .table:
        let cursorRows = cursors.map { cursor, lag in
          (
            "cursor \(cursor.name)",
            "at \(cursor.position), \(lag.records) behind the head"
              + (lag.records > 0 ? String(format: " (oldest unhandled change %.1f s ago)", lag.seconds) : "")
          )
        }
        var fleetRows = publications.map { publication, behind in
          (
            "fleet \(publication.organisation)",
            "published \(publication.position), \(behind) behind the head, at \(publication.time)"
              + (publication.checkpoint.map { ", checkpoint \($0)" } ?? "")
          )
        }
        for (organisation, failure) in failures.sorted(by: { $0.key < $1.key }) {
          fleetRows.append(
            (
              "fleet \(organisation)",
              "the last push failed at \(failure.time): \(TerminalText.escaped(failure.reason))"
            ))
        }
        let accountRows = accounts.map {
          ("account \(TerminalText.escaped($0.account.title))", KalendsCommand.Account.statusWords($0))
        }
        print(TextTable.fields(fields.map { ($0.0, $0.1.plainText) } + cursorRows + fleetRows + accountRows))
      }
    }

    /// A push failure as JSON: when, and why; `null` for none.
    static func failure(_ failure: (time: Timestamp, reason: String)?) -> JSONValue {
      guard let failure else { return .null }
      return .object([("at", .string(failure.time.description)), ("reason", .string(failure.reason))])
    }
  }
}
