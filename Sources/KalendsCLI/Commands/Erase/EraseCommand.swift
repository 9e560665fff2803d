import ArgumentParser
import Kalends
import KalendsCommandSupport
import KalendsFormats

extension KalendsCommand {
  /// `kalends erase event|reminder|calendar|contact|group ID`: erases an object's content from the log.
  struct Erase: ParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "erase",
      abstract:
        "Erase the content of an event, reminder, calendar, contact or group from the log; every proof stays valid.",
      discussion: """
        The person only. The object is removed first when it is still there; then the content \
        (titles, notes, places, times, rules) of every record that saved it is erased — for a \
        calendar, also of every record that saved an item into it — and a contentErased record \
        names them. The records keep their position, time, actor, kind and the object's id, and \
        their hashes: verify, checkpoints, proofs and witnesses go on passing. The bytes leave \
        data.mdb when LMDB reuses the pages they were on; `kalends compact` (with no other \
        process using the store) rewrites the file at once. A backup taken afterwards never holds \
        them. See docs/transparency.md ("Erasure").
        """)

    /// What kind of object.
    enum Kind: String, ExpressibleByArgument, CaseIterable {
      case event, reminder, calendar, contact, group
    }

    @OptionGroup var global: GlobalOptions

    @Argument(help: "What to erase: event, reminder, calendar, contact or group.") var kind: Kind

    @Argument(help: "Its id.") var id: String

    @Option(help: "Why, written into the contentErased record (never the content itself).")
    var reason: String?

    @Option(help: "Output format.") var format: ObjectFormat = .configured

    func run() throws {
      let id = try ObjectID(argument: id)
      let item: ErasableItem
      switch kind {
      case .event: item = .event(id)
      case .reminder: item = .reminder(id)
      case .calendar: item = .calendar(id)
      case .contact: item = .contact(id)
      case .group: item = .group(id)
      }
      let store = try global.openEventStore()
      let erasure = try store.privacySettings().erase(item, reason: reason)
      switch format {
      case .json:
        print(
          JSONValue.object([
            ("item", .string(kind.rawValue)), ("id", .string(id.description)),
            ("removal", erasure.removal.map { .number(Double($0.rawValue)) } ?? .null),
            ("erasedPositions", .array(erasure.erasedPositions.map { .number(Double($0.rawValue)) })),
            ("record", erasure.record.map { .number(Double($0.rawValue)) } ?? .null),
            (
              "continuations",
              .array(
                erasure.continuations.map { part in
                  .object([
                    ("id", .string(part.item.id.description)),
                    ("removal", part.removal.map { .number(Double($0.rawValue)) } ?? .null),
                    ("erasedPositions", .array(part.erasedPositions.map { .number(Double($0.rawValue)) })),
                    ("record", part.record.map { .number(Double($0.rawValue)) } ?? .null),
                  ])
                })
            ),
          ]).rendered())
      case .table:
        if let removal = erasure.removal { print("removed \(item) (record \(removal))") }
        if let record = erasure.record {
          let count = erasure.erasedPositions.count
          print("erased the content of \(count) record\(count == 1 ? "" : "s") of \(item) (record \(record))")
        } else {
          print("nothing left to erase of \(item)")
        }
        for part in erasure.continuations {
          if let record = part.record {
            let count = part.erasedPositions.count
            print(
              "erased the content of \(count) record\(count == 1 ? "" : "s") of \(part.item), split from it (record \(record))"
            )
          }
        }
      }
    }
  }
}
