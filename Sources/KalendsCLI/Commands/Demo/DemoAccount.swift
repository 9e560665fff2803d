import Foundation
import Kalends
import KalendsCommandSupport
import KalendsSync

/// The demo's account: a second store beside the demo's (`PATH.family`, replaced with it), served
/// over CalDAV on loopback by another `kalends serve` while the demo runs. Its School calendar is
/// synced into the demo store as the account "Family server", through the family store's own
/// privacy gate: the password is a token of the family store's for an app with access to its
/// calendars only (`PATH.family.password`, mode 0600). So the quickstart shows an account without
/// any network.
enum DemoAccount {
  /// The syncing program, as the family store knows it.
  static let appID = "dev.kalends.demo-sync"

  /// The family store: beside the demo store, never inside it.
  static func remotePath(of store: String) -> String { store + ".family" }
  /// The file holding the token that is the account's password.
  static func passwordPath(of store: String) -> String { store + ".family.password" }

  /// Makes the family store, serves it, adds it to `owner` as an account, syncs it, and prints what
  /// happened.
  static func play(_ owner: EventStore, storePath: String) async throws {
    let remotePath = remotePath(of: storePath)
    for file in ["data.mdb", "lock.mdb"] { try? FileManager.default.removeItem(atPath: remotePath + "/" + file) }
    let family = try EventStore(path: remotePath, options: StoreOptions(durability: .noMetaSync))
    let school = try family.save(EventCalendar(title: "School", color: "#FF9500"))
    func at(_ month: Int, _ day: Int, _ hour: Int, _ minute: Int = 0) -> LocalDateTime {
      LocalDateTime(year: 2026, month: month, day: day, hour: hour, minute: minute)!
    }
    var swimming = Kalends.Event(
      calendarID: school.id, title: "Swimming lessons", start: at(1, 14, 16), end: at(1, 14, 17),
      timeZone: "Europe/Berlin")
    swimming.recurrenceRules = [try RecurrenceRule(parsing: "FREQ=WEEKLY;UNTIL=20260630T000000Z")]
    _ = try family.save(
      [
        swimming,
        Kalends.Event(
          calendarID: school.id, title: "Parents' evening", start: at(3, 31, 18), end: at(3, 31, 20),
          timeZone: "Europe/Berlin"),
        Kalends.Event(
          calendarID: school.id, title: "School trip", start: at(4, 2, 8), end: at(4, 2, 17),
          timeZone: "Europe/Berlin"),
      ], span: .thisEvent)
    try family.register(
      Kalends.Client(
        id: appID, name: "Kalends (the demo store)",
        usageDescriptions: [.calendarsFull: "Syncs the family's calendars into your own store."]))
    try family.privacySettings().setAccess(.fullAccess, for: appID, service: .calendars)
    let (_, secret) = try family.privacySettings().createToken(for: appID, label: "demo account")
    let password = passwordPath(of: storePath)
    try? FileManager.default.removeItem(atPath: password)
    guard
      FileManager.default.createFile(
        atPath: password, contents: Data((secret + "\n").utf8), attributes: [.posixPermissions: 0o600])
    else { throw CLIError(message: "\(password) cannot be written", status: .storage) }

    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("kalends-demo-family-\(getpid())")
      .path
    try FileManager.default.createDirectory(
      atPath: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
    defer { try? FileManager.default.removeItem(atPath: directory) }
    let (server, port) = try DemoServedApps.startServer(store: remotePath, socket: directory + "/kalends.sock")
    defer {
      server.terminate()
      server.waitUntilExit()
    }
    let credentials = AccountCredentials.file(password)
    let account: CalendarAccount
    let summary: AccountSync.Summary
    do {
      let found = try await AccountDiscovery.discover(
        "http://127.0.0.1:\(port)", user: "demo", credentials: credentials)
      account = try owner.addAccount(
        CalendarAccount(
          title: "Family server", principal: found.principal, user: "demo", calendarHome: found.calendarHome,
          addressBookHome: found.addressBookHome))
      try credentials.save(to: AccountCredentials.path(forAccount: account.id, store: storePath))
      summary = try await AccountSync.sync(account, into: owner, storePath: storePath)
    } catch let error as AccountError {
      throw KalendsCommand.Account.failure(error)
    }
    print(
      "Account \"\(account.title)\": another store (\(remotePath)) served over CalDAV on 127.0.0.1:\(port), its School "
        + "calendar synced in, read-only — \(KalendsCommand.Account.Sync.words(summary)) "
        + "(kalends account show \"\(account.title)\" --store \(storePath))")
    print(
      "  Its records are the account's own (event history says account “\(account.title)”); to sync it again, "
        + "serve the family store on that port: kalends serve --store \(remotePath) --listen 127.0.0.1:\(port)\n")
  }
}
