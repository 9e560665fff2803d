import ArgumentParser
import Foundation
import Kalends
import KalendsCommandSupport
import KalendsFormats
import KalendsSync

extension KalendsCommand.Account {
  /// `kalends account sync [ACCOUNT…]`.
  struct Sync: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "sync",
      abstract: "Sync accounts now, both ways (every account, or those named).",
      discussion: """
        Each calendar is synced with sync-collection (RFC 6578) from where the last sync ended, \
        else by comparing ETags; objects are fetched in batches, each batch one transaction, so a \
        sync stopped anywhere resumes with nothing lost and nothing twice. Then what the person and \
        apps changed here goes out with conditional PUT and DELETE; a change made on both sides \
        keeps the server's version and is recorded as a conflict (account show). A progress bar \
        shows on a terminal. An account that cannot be reached is named, and the exit status is then its \
        failure's.
        """)

    @OptionGroup var global: GlobalOptions

    @Argument(help: "Accounts, by name or id (default: every one).") var accounts: [String] = []

    @Option(help: "Seconds to wait for each request.") var timeout = 30

    @Option(help: "Output format.") var format: ObjectFormat = .configured

    func run() async throws {
      let store = try global.openEventStore()
      try store.requireOwner("sync accounts")
      let chosen =
        try accounts.isEmpty ? store.accounts() : accounts.map { try KalendsCommand.Account.named($0, in: store) }
      try await Self.sync(chosen, store: store, storePath: global.storePath, timeout: timeout, format: format)
    }

    /// Syncs `accounts` one after another and prints a line for each; the first failure's status
    /// is the exit status, once every account was tried.
    static func sync(
      _ accounts: [CalendarAccount], store: EventStore, storePath: String, timeout: Int, format: ObjectFormat
    ) async throws {
      var rows: [(CalendarAccount, Result<AccountSync.Summary, AccountError>)] = []
      for account in accounts {
        let bar = ProgressLine(label: "syncing \(account.title)")
        let outcome: Result<AccountSync.Summary, AccountError>
        do {
          outcome = .success(
            try await AccountSync.sync(account, into: store, storePath: storePath, timeout: timeout) { progress in
              bar.update(
                done: progress.objects, total: max(progress.total, progress.objects),
                label: "syncing \(progress.calendar) \(Self.bytes(progress.bytes))")
            })
        } catch {
          outcome = .failure(error)
        }
        bar.finish()
        rows.append((account, outcome))
      }
      format.write(
        rows,
        json: { row in
          var fields: [(String, JSONValue)] = [("id", .string(row.0.id.description)), ("title", .string(row.0.title))]
          switch row.1 {
          case .success(let summary): fields += Self.fields(summary)
          case .failure(let error): fields.append(("error", .string(error.description)))
          }
          return fields
        },
        columns: [
          ("ID", { $0.0.id.description }), ("TITLE", { TerminalText.escaped($0.0.title) }),
          (
            "OUTCOME",
            { row in
              switch row.1 {
              case .success(let summary): Self.words(summary)
              case .failure(let error): "failed: \(error.description)"
              }
            }
          ),
        ])
      if let failure = rows.lazy.compactMap({ row -> AccountError? in
        if case .failure(let error) = row.1 { return error }
        return nil
      }).first {
        throw CLIError(
          message:
            "\(rows.filter { if case .failure = $0.1 { true } else { false } }.count) of \(rows.count) accounts did not sync",
          status: ExitStatus(failure.category))
      }
    }

    /// The counts of a summary, in JSON.
    static func fields(_ summary: AccountSync.Summary) -> [(String, JSONValue)] {
      let total = summary.collections.reduce(into: RemoteApply()) { $0.add($1.applied) }
      return [
        ("calendars", .number(Double(summary.collections.count))),
        ("calendarsAdded", .number(Double(summary.calendarsAdded))),
        ("calendarsRemoved", .number(Double(summary.calendarsRemoved))),
        ("calendarsMade", .number(Double(summary.calendarsMade))),
        ("calendarsRemovedThere", .number(Double(summary.calendarsRemovedThere))),
        ("created", .number(Double(total.created))), ("updated", .number(Double(total.updated))),
        ("unchanged", .number(Double(total.unchanged))), ("removed", .number(Double(total.removed))),
        ("sent", .number(Double(summary.collections.reduce(0) { $0 + $1.sent }))),
        (
          "conflicts",
          .array(
            summary.collections.flatMap { collection in
              collection.conflicts.map { .object([("calendar", .string(collection.title)), ("name", .string($0))]) }
            })
        ),
        (
          "quarantined",
          .array(
            summary.collections.flatMap { collection in
              collection.quarantined.map {
                .object([
                  ("calendar", .string(collection.title)), ("name", .string($0.name)), ("reason", .string($0.reason)),
                ])
              }
            })
        ),
        ("addressBooks", .number(Double(summary.addressBooks.count))),
        ("addressBooksAdded", .number(Double(summary.addressBooksAdded))),
        ("addressBooksRemoved", .number(Double(summary.addressBooksRemoved))),
        ("addressBooksMade", .number(Double(summary.addressBooksMade))),
        ("cards", .object(cards(summary).map { ($0.0, .number(Double($0.1))) })),
        (
          "cardConflicts",
          .array(
            summary.addressBooks.flatMap { book in
              book.conflicts.map { .object([("addressBook", .string(book.title)), ("name", .string($0))]) }
            })
        ),
        (
          "cardsQuarantined",
          .array(
            summary.addressBooks.flatMap { book in
              book.quarantined.map {
                .object([
                  ("addressBook", .string(book.title)), ("name", .string($0.name)), ("reason", .string($0.reason)),
                ])
              }
            })
        ),
        ("requests", .number(Double(summary.requests))), ("bytes", .number(Double(summary.bytes))),
        ("seconds", .number((summary.seconds * 10_000).rounded() / 10_000)),
      ]
    }

    /// A summary in words: "3 calendars: 120 new, 2 changed, 1 removed (5 requests, 1.2 MB)".
    static func words(_ summary: AccountSync.Summary) -> String {
      let total = summary.collections.reduce(into: RemoteApply()) { $0.add($1.applied) }
      let quarantined = summary.collections.reduce(0) { $0 + $1.quarantined.count }
      var parts = ["\(total.created) new", "\(total.updated) changed", "\(total.removed) removed"]
      let sent = summary.collections.reduce(0) { $0 + $1.sent }
      let conflicts = summary.collections.reduce(0) { $0 + $1.conflicts.count }
      if summary.calendarsMade > 0 { parts.append("\(summary.calendarsMade) made on the server") }
      if summary.calendarsRemovedThere > 0 {
        parts.append("\(summary.calendarsRemovedThere) removed on the server")
      }
      if sent > 0 { parts.append("\(sent) sent") }
      if conflicts > 0 { parts.append("\(conflicts) conflicts, the server's version kept (kalends account show)") }
      if quarantined > 0 { parts.append("\(quarantined) quarantined (kalends account show)") }
      let count = summary.collections.count
      var books = ""
      if !summary.addressBooks.isEmpty {
        let counts = Dictionary(uniqueKeysWithValues: cards(summary))
        let quarantinedCards = summary.addressBooks.reduce(0) { $0 + $1.quarantined.count }
        let cardConflicts = summary.addressBooks.reduce(0) { $0 + $1.conflicts.count }
        books =
          "; \(summary.addressBooks.count) address book\(summary.addressBooks.count == 1 ? "" : "s")"
          + (summary.addressBooksMade > 0 ? " (\(summary.addressBooksMade) made on the server)" : "") + ": "
          + "\(counts["created"]!) new, \(counts["updated"]!) changed, \(counts["removed"]!) removed"
          + (counts["sent"]! > 0 ? ", \(counts["sent"]!) sent" : "")
          + (cardConflicts > 0 ? ", \(cardConflicts) conflicts, the server's version kept (kalends account show)" : "")
          + (quarantinedCards > 0 ? ", \(quarantinedCards) quarantined (kalends account show)" : "")
      }
      return "\(count) calendar\(count == 1 ? "" : "s"): " + parts.joined(separator: ", ") + books
        + " (\(summary.requests) requests, \(bytes(summary.bytes)))"
    }

    /// The cards the address books' syncs created, updated, found unchanged, removed and sent.
    static func cards(_ summary: AccountSync.Summary) -> [(String, Int)] {
      let total = summary.addressBooks.reduce(into: RemoteApply()) { $0.add($1.applied) }
      return [
        ("created", total.created), ("updated", total.updated), ("unchanged", total.unchanged),
        ("removed", total.removed), ("sent", summary.addressBooks.reduce(0) { $0 + $1.sent }),
      ]
    }

    /// Bytes in the largest unit: `840 B`, `12.4 kB`, `1.2 MB`.
    static func bytes(_ count: Int) -> String {
      if count < 1000 { return "\(count) B" }
      if count < 1_000_000 { return String(format: "%.1f kB", Double(count) / 1000) }
      return String(format: "%.1f MB", Double(count) / 1_000_000)
    }
  }
}
