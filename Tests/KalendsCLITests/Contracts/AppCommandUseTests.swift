import Foundation
import KalendsTestSupport
import Testing

/// Every command of `kalends`, as its own help lists them, is known here: one an app runs with
/// `--as` to read is run by an app with access — and its read must be in `kalends audit uses` —
/// and by an app without — which must get nothing, be refused, have the refusal counted and no use
/// recorded. A command added to `kalends` without a line here fails the first test.
@Suite("Command line: every read of an app is recorded, every refused one too")
struct AppCommandUseTests {
  /// What a command is to an app.
  enum Role {
    /// An app reads the service with it: the arguments after the command's path.
    case read(service: String, arguments: [String])
    /// An app writes with it; writes are records of their own (`eventSaved` by the app, …).
    case write
    /// The person's only: refused with `--as` (OwnerOnlyCLITests runs each).
    case ownerOnly
    /// Touches no data of the store (help, keys, proofs checked offline, an app's own status).
    case noData
  }

  /// The commands, by path. `$CAL`, `$EVENT`, `$LIST`, `$REMINDER` and `$CONTACT` stand for the
  /// fixture's ids.
  static let roles: [String: Role] = [
    "calendar list": .read(service: "calendars", arguments: []),
    "event show": .read(service: "calendars", arguments: ["$EVENT"]),
    "event list": .read(service: "calendars", arguments: ["--calendar", "$CAL"]),
    "agenda": .read(service: "calendars", arguments: ["2026-06-01..2026-06-07"]),
    "events": .read(service: "calendars", arguments: ["--from", "2026-06-01", "--to", "2026-06-08"]),
    "alarms": .read(service: "calendars", arguments: ["--from", "2026-05-25", "--to", "2026-06-08"]),
    "search": .read(service: "calendars", arguments: ["Review"]),
    "freebusy": .read(service: "calendars", arguments: ["--from", "2026-06-01", "--to", "2026-06-08"]),
    "export": .read(service: "calendars", arguments: ["--calendar", "$CAL"]),
    "watch": .read(service: "calendars", arguments: ["--from", "1", "--limit", "1"]),
    "reminder list": .read(service: "reminders", arguments: ["--calendar", "$LIST"]),
    "reminder show": .read(service: "reminders", arguments: ["$REMINDER"]),
    "contact list": .read(service: "contacts", arguments: []),
    "contact show": .read(service: "contacts", arguments: ["$CONTACT"]),
    "contact search": .read(service: "contacts", arguments: ["Ana"]),
    "contact export": .read(service: "contacts", arguments: []),
    "group list": .read(service: "contacts", arguments: []),
    "contact book list": .read(service: "contacts", arguments: []),
    "calendar create": .write, "calendar update": .write, "calendar remove": .write,
    "event add": .write, "event update": .write, "event remove": .write,
    "reminder add": .write, "reminder update": .write, "reminder complete": .write, "reminder remove": .write,
    "contact add": .write, "contact update": .write, "contact remove": .write, "contact import": .write,
    "group add": .write, "group rename": .write, "group remove": .write, "group add-member": .write,
    "group remove-member": .write, "contact book add": .write, "contact book rename": .write,
    "contact book remove": .write, "import": .write, "access request": .write,
    "init": .ownerOnly, "status": .ownerOnly, "contact pick": .ownerOnly,
    "client register": .ownerOnly, "client update": .ownerOnly, "client list": .ownerOnly,
    "client token create": .ownerOnly,
    "client token list": .ownerOnly, "client token revoke": .ownerOnly,
    "access set": .ownerOnly, "access restrict": .ownerOnly, "access unrestrict": .ownerOnly,
    "access reset": .ownerOnly, "audit history": .ownerOnly, "audit apps": .ownerOnly, "audit uses": .ownerOnly,
    "audit export": .ownerOnly, "audit report": .ownerOnly, "audit state": .ownerOnly, "audit who-can": .ownerOnly,
    "audit verify": .ownerOnly, "audit prove": .ownerOnly, "demo": .ownerOnly, "log tail": .ownerOnly,
    "log show": .ownerOnly, "log head": .ownerOnly, "log annotate": .ownerOnly, "verify": .ownerOnly,
    "backup": .ownerOnly, "erase": .ownerOnly, "compact": .ownerOnly, "retention set": .ownerOnly,
    "retention show": .ownerOnly, "retention apply": .ownerOnly, "rebuild": .ownerOnly,
    "checkpoint sign": .ownerOnly, "checkpoint show": .ownerOnly, "checkpoint list": .ownerOnly,
    "witness serve": .ownerOnly, "serve": .ownerOnly, "prompts list": .ownerOnly, "prompts answer": .ownerOnly,
    "bench generate": .ownerOnly, "bench range": .ownerOnly,
    "event history": .ownerOnly, "event restore": .ownerOnly, "reminder history": .ownerOnly,
    "reminder restore": .ownerOnly, "calendar history": .ownerOnly, "calendar restore": .ownerOnly,
    "contact history": .ownerOnly, "contact restore": .ownerOnly, "group history": .ownerOnly,
    "group restore": .ownerOnly, "removed": .ownerOnly, "subscribe": .ownerOnly, "subscription list": .ownerOnly,
    "push list": .ownerOnly, "push remove": .ownerOnly,
    "subscription refresh": .ownerOnly, "subscription remove": .ownerOnly, "account probe": .noData,
    "account add": .ownerOnly, "account list": .ownerOnly, "account show": .ownerOnly, "account sync": .ownerOnly,
    "account remove": .ownerOnly, "account update": .ownerOnly,
    "access status": .noData, "audit check-proof": .noData, "key generate": .noData, "key verifier": .noData,
    "help": .noData, "config show": .noData, "fleet push": .ownerOnly, "fleet mirror": .noData,
    "fleet audit stores": .noData, "fleet audit history": .noData, "fleet audit state": .noData,
    "fleet audit who-can": .noData, "fleet audit report": .noData,
  ]

  /// Every leaf command `kalends --experimental-dump-help` describes, as its path.
  static func commands() throws -> [String] {
    let dumped = try CLI.run(["--experimental-dump-help"])
    try #require(dumped.status == 0, "\(dumped.stderr)")
    let root = try #require(try json(dumped.stdout) as? [String: Any])
    var paths: [String] = []
    func walk(_ command: [String: Any], _ path: [String]) {
      let subcommands = command["subcommands"] as? [[String: Any]] ?? []
      if subcommands.isEmpty { paths.append(path.joined(separator: " ")) }
      for sub in subcommands { walk(sub, path + [sub["commandName"] as? String ?? "?"]) }
    }
    walk(try #require(root["command"] as? [String: Any]), [])
    return paths
  }

  @Test func everyCommandIsKnown() throws {
    let commands = try Self.commands()
    #expect(commands.count > 60, "\(commands)")
    let unknown = commands.filter { Self.roles[$0] == nil }
    #expect(unknown.isEmpty, "commands without a role here (add one, and record its reads): \(unknown)")
    let gone = Set(Self.roles.keys).subtracting(commands)
    #expect(gone.isEmpty, "roles of commands that no longer exist: \(gone)")
  }

  @Test func everyReadOfAnAppIsRecordedAndARefusedOneIsNot() throws {
    let store = try CLIStore()
    let reader = "com.example.reader"
    let refused = "com.example.refused"
    for app in [reader, refused] {
      try store.object([
        "client", "register", app, "--name", app == reader ? "Reader" : "Refused", "--usage",
        "calendars-full=Shows your week.", "--usage", "reminders-full=Lists tasks.", "--usage",
        "contacts=Finds people.",
      ])
      for service in ["calendars", "reminders", "contacts"] {
        try store.object([
          "access", "set", app, "--service", service, "--status", app == reader ? "full" : "denied",
        ])
      }
    }
    let calendar = try store.calendar("Work")
    let event = try #require(
      try store.object([
        "event", "add", "--calendar", calendar, "--title", "Review", "--start", "2026-06-02T10:00:00", "--end",
        "2026-06-02T11:00:00",
      ])["id"] as? String)
    let list = try store.calendar("Tasks", ["--reminders"])
    let reminder = try #require(
      try store.object(["reminder", "add", "--calendar", list, "--title", "Renew passport"])["id"] as? String)
    let contact = try #require(
      try store.object(["contact", "add", "--given", "Ana", "--family", "Souza"])["id"] as? String)
    let ids = ["$CAL": calendar, "$EVENT": event, "$LIST": list, "$REMINDER": reminder, "$CONTACT": contact]

    func uses(_ app: String) throws -> [String: Int] {
      var counts: [String: Int] = [:]
      for use in try store.objects(["audit", "uses", "--client", app]) {
        counts["\(use["service"] as? String ?? "")/\(use["operation"] as? String ?? "")", default: 0] +=
          use["count"] as? Int ?? 0
      }
      return counts
    }
    func refusals(_ app: String) throws -> Int {
      try store.objects(["audit", "history", "--client", app]).filter {
        $0["kind"] as? String == "accessAttemptRefused"
      }.reduce(0) { $0 + ($1["count"] as? Int ?? 1) }
    }
    for (command, role) in Self.roles.sorted(by: { $0.key < $1.key }) {
      guard case .read(let service, let template) = role else { continue }
      let arguments = command.split(separator: " ").map(String.init) + template.map { ids[$0] ?? $0 }
      let before = try uses(reader)
      let read = try store.run(arguments + ["--as", reader])
      #expect(read.status == 0, "\(command): \(read.stderr)")
      let after = try uses(reader)
      let added =
        after.filter { $0.key.hasPrefix(service + "/") }.reduce(0) { $0 + $1.value }
        - before.filter { $0.key.hasPrefix(service + "/") }.reduce(0) { $0 + $1.value }
      #expect(added >= 1, "\(command) read \(service) and recorded no use: \(before) → \(after)")

      let refusedBefore = try refusals(refused)
      let denied = try store.run(arguments + ["--as", refused])
      #expect(denied.status != 0, "\(command) answered an app without access: \(denied.stdout)")
      #expect(!denied.stdout.contains("Review") && !denied.stdout.contains("Souza") && !denied.stdout.contains("Renew"))
      #expect(try refusals(refused) > refusedBefore, "\(command): the refusal is recorded")
      #expect(try uses(refused).isEmpty, "\(command): a refused read is no use")
    }
  }
}
