import ArgumentParser
import Foundation
import Kalends
import KalendsCommandSupport
import KalendsFormats

extension KalendsCommand.Audit {
  /// `kalends audit export`: the apps' reads in the shape of iOS's App Privacy Report export.
  struct Export: ParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "export",
      abstract: "Write what apps read as NDJSON in the shape of iOS's App Privacy Report export.",
      discussion: """
        One line per interval boundary, as the App Privacy Report writes them: \
        {"accessor": {"identifier", "identifierType": "bundleID"}, "category", "identifier", "kind": \
        "intervalBegin" or "intervalEnd", "timeStamp", "type": "access"}, the two lines of an \
        interval sharing their "identifier". category is calendars, reminders or contacts. Each \
        line also carries "kalends": the operation, the count of reads, the calendars touched, \
        whether the app was identified, and the records that hold it. Tools made for the App \
        Privacy Report read it; nothing in it is content.
        """)

    @OptionGroup var global: GlobalOptions

    @Option(help: "Only this app, by its id or its name.") var client: String?

    @OptionGroup var window: AuditWindow

    @Option(help: "The format: ndjson (the only one).") var format: ExportFormat = .ndjson

    @Option(help: ArgumentHelp("Write to this file instead of standard output.", valueName: "file"))
    var out: String?

    enum ExportFormat: String, ExpressibleByArgument, CaseIterable {
      case ndjson
    }

    func run() throws {
      let store = try global.openStore(readOnly: true, for: "read the audit")
      let (since, until) = try window.bounds
      let client = try self.client.map { try EventStore(store: store).clientNamed($0, option: "--client") }
      let uses = try PrivacyAudit(store: store).uses(client: client, since: since, until: until)
      var text = ""
      for use in uses {
        for line in Self.lines(use) { text += JSONValue.object(line).rendered() + "\n" }
      }
      if let out {
        do {
          try Data(text.utf8).write(to: URL(fileURLWithPath: out), options: .atomic)
        } catch {
          throw CLIError.invalidInput("--out: cannot write \(out): \(error.localizedDescription)")
        }
      } else {
        print(text, terminator: "")
      }
    }

    /// The interval's two lines: its beginning and its end, paired by an identifier made from the
    /// position of its first record (unique in the store, the same in every export).
    static func lines(_ use: AccessUse) -> [[(String, JSONValue)]] {
      let first = use.positions.first?.rawValue ?? 0
      let identifier = String(format: "00000000-0000-4000-8000-%012llX", first & 0xFFFF_FFFF_FFFF)
      let details: JSONValue = .object([
        ("operation", .string(use.operation)),
        ("count", .number(Double(use.count))),
        ("objects", .array(use.objects.map { .string($0.description) })),
        ("status", .string(use.status.description)),
        ("identified", .bool(use.identification != nil)),
        ("positions", .array(use.positions.map { .number(Double($0.rawValue)) })),
      ])
      return [("intervalBegin", use.start), ("intervalEnd", use.end)].map { kind, time in
        [
          ("accessor", .object([("identifier", .string(use.client)), ("identifierType", .string("bundleID"))])),
          ("category", .string(use.service.description)),
          ("identifier", .string(identifier)),
          ("kind", .string(kind)),
          ("timeStamp", .string(Self.timeStamp(time))),
          ("type", .string("access")),
          ("kalends", details),
        ]
      }
    }

    /// `2026-11-27T16:40:00.000+00:00`: the report's form (milliseconds and an offset).
    static func timeStamp(_ time: Timestamp) -> String {
      // The log's form is `2026-11-27T16:40:00.000000Z`.
      String(time.description.prefix(23)) + "+00:00"
    }
  }
}
