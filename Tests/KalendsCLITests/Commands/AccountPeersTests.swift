import Foundation
import KalendsTestSupport
import Testing

/// Accounts against a second server, Xandikos (PyPI; Tests/Oracles/xandikos_server.py), and the
/// store's account calendars checked against an independent sync: vdirsyncer (PyPI) syncing the
/// same Radicale collection into a folder; and a watching app hearing a sync.
@Suite("Command line: accounts on Xandikos, checked against vdirsyncer, heard by apps")
struct AccountPeersTests {
  typealias Sync = AccountSyncTests

  /// A started Xandikos serving `directory`, and its address.
  final class Xandikos {
    let process: Process
    let base: String

    init(_ directory: String) throws {
      try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
      let (process, output, _) = try CLI.start(
        ["python3", Repository.root.appendingPathComponent("Tests/Oracles/xandikos_server.py").path, directory],
        program: URL(fileURLWithPath: "/usr/bin/env"))
      self.process = process
      base = "http://127.0.0.1:\(output.fileHandleForReading.availableLine())"
      for _ in 0..<300 {
        let probe = try? CLI.run(
          ["curl", "-s", "-o", "/dev/null", "-w", "%{http_code}", base + "/user/calendars/calendar/"],
          program: URL(fileURLWithPath: "/usr/bin/env"))
        if probe?.stdout == "200" { return }
        Thread.sleep(forTimeInterval: 0.1)
      }
      Issue.record("Xandikos did not answer at \(base)")
    }

    func curl(_ method: String, _ path: String, _ body: String? = nil) throws -> String {
      var arguments = ["curl", "-s", "-o", "/dev/null", "-w", "%{http_code}", "-X", method]
      if let body { arguments += ["-H", "Content-Type: text/calendar", "--data-binary", body] }
      return try CLI.run(arguments + [base + path], program: URL(fileURLWithPath: "/usr/bin/env")).stdout
    }

    /// The body of `GET path`.
    func get(_ path: String) throws -> String {
      try CLI.run(["curl", "-s", base + path], program: URL(fileURLWithPath: "/usr/bin/env")).stdout
    }

    deinit {
      kill(process.processIdentifier, SIGKILL)
      process.waitUntilExit()
    }
  }

  @Test func aXandikosAccountSyncsASeriesWithItsOverrideAChangeAndARemoval() throws {
    let store = try CLIStore()
    let server = try Xandikos(store.directory.path + "/xandikos")
    let calendar = "/user/calendars/calendar/"
    #expect(try server.curl("PUT", calendar + "standup.ics", Sync.series) == "201")
    #expect(try server.curl("PUT", calendar + "lunch.ics", Sync.file(Sync.event("lunch@x", "Lunch", day: 3))) == "201")
    let added = try store.run([
      "account", "add", "caldav", server.base, "--user", "user", "--password-command", "echo unused", "--title", "X",
      "--format", "json",
    ])
    #expect(added.status == 0 && added.stdout.contains("\"created\":2"), "\(added.stdout) \(added.stderr)")
    let id = try #require(
      try store.objects(["calendar", "list"]).first { ($0["source"] as? [String: Any])?["title"] as? String == "X" }?[
        "id"] as? String)
    func exported() throws -> String { try store.run(["export", "--calendar", id]).stdout }
    #expect(
      try Sync.oracle([exported()]) == Sync.oracle([Sync.series, Sync.file(Sync.event("lunch@x", "Lunch", day: 3))]))

    let moved = Sync.series.replacingOccurrences(of: "SUMMARY:Standup moved", with: "SUMMARY:Standup moved again")
    #expect(try server.curl("PUT", calendar + "standup.ics", moved) == "204")
    #expect(try server.curl("DELETE", calendar + "lunch.ics") == "204")
    let synced = try store.run(["account", "sync", "--format", "json"])
    #expect(synced.stdout.contains("\"updated\":1") && synced.stdout.contains("\"removed\":1"), "\(synced.stdout)")
    #expect(try Sync.oracle([exported()]) == Sync.oracle([moved]))
    #expect(try store.run(["verify"]).status == 0)
  }

  /// Xandikos's address book (its address-book home apart from its calendar home): two cards and a
  /// vCard 4.0 group (`KIND:group`, `MEMBER`) come into a container of the account; a card removed
  /// on the server goes, and the group loses it; a change, a new card and a new member made here
  /// go out.
  @Test func aXandikosAccountsAddressBookWithAGroupComesIn() throws {
    let store = try CLIStore()
    let server = try Xandikos(store.directory.path + "/xandikos")
    let book = "/user/contacts/addressbook/"
    func put(_ name: String, _ card: String) throws -> String {
      try CLI.run(
        [
          "curl", "-s", "-o", "/dev/null", "-w", "%{http_code}", "-X", "PUT", "-H", "Content-Type: text/vcard",
          "--data-binary", card, server.base + book + name,
        ], program: URL(fileURLWithPath: "/usr/bin/env")
      ).stdout
    }
    #expect(try put("ann.vcf", AccountAddressBookTests.card("ann-x", "Ann", "Lee", email: "ann@x.example")) == "201")
    #expect(try put("bob.vcf", AccountAddressBookTests.card("bob-x", "Bob", "Roe", email: "bob@x.example")) == "201")
    let group =
      "BEGIN:VCARD\r\nVERSION:4.0\r\nUID:team-x\r\nKIND:group\r\nFN:Team\r\nN:Team;;;;\r\n"
      + "MEMBER:urn:uuid:ann-x\r\nMEMBER:urn:uuid:bob-x\r\nEND:VCARD\r\n"
    #expect(try put("team.vcf", group) == "201")
    let added = try store.run([
      "account", "add", "caldav", server.base, "--user", "user", "--password-command", "echo unused", "--title", "X",
      "--format", "json",
    ])
    #expect(added.status == 0 && added.stdout.contains("\"addressBooksAdded\":1"), "\(added.stdout) \(added.stderr)")
    let books = try store.objects(["contact", "book", "list"])
    let id = try #require(books.first { $0["title"] as? String != "Contacts" }?["id"] as? String, "\(books)")
    let contacts = try store.objects(["contact", "list", "--book", id])
    #expect(Set(contacts.compactMap { $0["givenName"] as? String }) == ["Ann", "Bob"])
    let team = try #require(try store.objects(["group", "list"]).first { $0["name"] as? String == "Team" })
    let teamID = try #require(team["id"] as? String)
    #expect(contacts.allSatisfy { ($0["groupIds"] as? [String]) == [teamID] }, "\(contacts)")

    #expect(try server.curl("DELETE", book + "bob.vcf") == "204")
    let synced = try store.run(["account", "sync", "--format", "json"])
    #expect(synced.status == 0 && synced.stdout.contains("\"removed\":1"), "\(synced.stdout)")
    let now = try store.objects(["contact", "list", "--book", id])
    #expect(now.compactMap { $0["givenName"] as? String } == ["Ann"])

    // Changes made here go out: Ann's new email, Cy made and put in Team (Team's card lists him).
    let ann = try #require(now.first?["id"] as? String)
    try store.object(["contact", "update", ann, "--email", "ann@new.example"])
    let cy = try store.object(["contact", "add", "--given", "Cy", "--book", id])
    try store.object(["group", "add-member", "Team", try #require(cy["id"] as? String)])
    let sent = try store.run(["account", "sync", "--format", "json"])
    #expect(sent.status == 0 && sent.stdout.contains("\"sent\":3"), "\(sent.stdout) \(sent.stderr)")
    #expect(try server.get(book + "ann.vcf").contains("ann@new.example"))
    let cyUID = try #require(cy["externalId"] as? String)
    #expect(try server.get(book + "\(cyUID).vcf").contains("FN:Cy"))
    #expect(try server.get(book + "team.vcf").contains(cyUID))
    #expect(try store.run(["verify"]).status == 0)
  }

  @Test func aXandikosAccountTakesChangesMadeHereAndAnswersAChangeOnBothSides() throws {
    let store = try CLIStore()
    let server = try Xandikos(store.directory.path + "/xandikos")
    let calendar = "/user/calendars/calendar/"
    #expect(try server.curl("PUT", calendar + "lunch.ics", Sync.file(Sync.event("lunch@x", "Lunch", day: 3))) == "201")
    let added = try store.run([
      "account", "add", "caldav", server.base, "--user", "user", "--password-command", "echo unused", "--title", "X",
    ])
    #expect(added.status == 0, "\(added.stderr)")
    let id = try #require(
      try store.objects(["calendar", "list"]).first { ($0["source"] as? [String: Any])?["title"] as? String == "X" }?[
        "id"] as? String)
    func served() throws -> String {
      try CLI.run(["curl", "-s", server.base + calendar + "lunch.ics"], program: URL(fileURLWithPath: "/usr/bin/env"))
        .stdout
    }
    func sync() throws -> String {
      let synced = try store.run(["account", "sync", "--format", "json"])
      #expect(synced.status == 0, "\(synced.stderr)")
      return synced.stdout
    }
    let lunch = try #require(try store.objects(["event", "list", "--calendar", id]).first?["id"] as? String)
    #expect(try store.run(["event", "update", lunch, "--title", "Lunch here"]).status == 0)
    #expect(try sync().contains("\"sent\":1"))
    #expect(try Sync.oracle([served()]) == Sync.oracle([store.run(["export", "--calendar", id]).stdout]))
    #expect(try served().contains("SUMMARY:Lunch here"))

    // Changed on both sides: Xandikos's version is kept, ours is in history.
    #expect(try store.run(["event", "update", lunch, "--title", "Lunch (ours)"]).status == 0)
    #expect(
      try server.curl("PUT", calendar + "lunch.ics", Sync.file(Sync.event("lunch@x", "Lunch (theirs)", day: 3)))
        == "204")
    #expect(try sync().contains("\"conflicts\":[{"))
    let exported = try store.run(["export", "--calendar", id]).stdout
    #expect(exported.contains("Lunch (theirs)") && !exported.contains("(ours)"), "\(exported)")
    #expect(try served().contains("Lunch (theirs)"))
    let history = try store.objects(["event", "history", lunch, "--format", "json"])
    #expect(history.contains { ($0["state"] as? [String: Any])?["title"] as? String == "Lunch (ours)" })
    #expect(try store.run(["verify"]).status == 0)
  }

  @Test func theStoreHoldsWhatVdirsyncerSyncsFromTheSameCollection() throws {
    let setup = try Sync.Setup()
    #expect(try setup.server.put("/ann/work/standup.ics", Sync.series) == "201")
    for day in 1...12 {
      let body = Sync.file(Sync.event("day\(day)@home", "Day \(day)", day: day, extra: "LOCATION:Room \(day)\r\n"))
      #expect(try setup.server.put("/ann/work/day\(day).ics", body) == "201")
    }
    _ = try setup.add()
    let work = try #require(
      try setup.store.objects(["calendar", "list"]).first { $0["title"] as? String == "Work" }?["id"] as? String)

    // vdirsyncer: the same collection into a folder, its own way (its own listing and fetches).
    let files = try Self.vdirsyncer(
      into: setup.store.directory.path + "/vdir", type: "caldav", collection: "work", fileext: ".ics",
      from: setup.server.base)
    #expect(files.count == 13)
    #expect(try Sync.oracle(files) == Sync.oracle([try setup.store.run(["export", "--calendar", work]).stdout]))
  }

  /// The cards of an account's address book equal what vdirsyncer (its `carddav` storage, its own
  /// listing and fetches) syncs of the same collection into a folder, both read by `vobject`.
  @Test func theStoresCardsAreWhatVdirsyncerSyncsFromTheSameAddressBook() throws {
    let setup = try Sync.Setup()
    let mkcol = """
      <?xml version="1.0" encoding="utf-8"?><D:mkcol xmlns:D="DAV:" xmlns:CR="urn:ietf:params:xml:ns:carddav">\
      <D:set><D:prop><D:resourcetype><D:collection/><CR:addressbook/></D:resourcetype>\
      <D:displayname>Friends</D:displayname></D:prop></D:set></D:mkcol>
      """
    #expect(try setup.server.curl("MKCOL", "/ann/friends/", mkcol) == "201")
    for index in 1...8 {
      let card = AccountAddressBookTests.card(
        "p\(index)", "Person", "Number\(index)", email: "p\(index)@example.com",
        birthday: index.isMultiple(of: 2) ? "19\(70 + index)-0\(index)-1\(index)" : nil)
      #expect(try AccountAddressBookTests.put(setup.server, "/ann/friends/p\(index).vcf", card) == "201")
    }
    _ = try setup.add()

    let files = try Self.vdirsyncer(
      into: setup.store.directory.path + "/vcards", type: "carddav", collection: "friends", fileext: ".vcf",
      from: setup.server.base)
    #expect(files.count == 8)
    let exported = try setup.store.run(["contact", "export"]).stdout
    #expect(try Self.cards(files) == Self.cards([exported]), "\(exported)")
  }

  /// What vdirsyncer (PyPI; its `type` storage, its own listing and fetches) syncs of Radicale's
  /// collection `collection` at `base` into a folder under `folder`: the text of each file.
  static func vdirsyncer(
    into folder: String, type: String, collection: String, fileext: String, from base: String
  ) throws -> [String] {
    try FileManager.default.createDirectory(atPath: folder + "/local", withIntermediateDirectories: true)
    let config = """
      [general]
      status_path = "\(folder)/status/"

      [pair local_remote]
      a = "local"
      b = "remote"
      collections = ["\(collection)"]

      [storage local]
      type = "filesystem"
      path = "\(folder)/local/"
      fileext = "\(fileext)"

      [storage remote]
      type = "\(type)"
      url = "\(base)/"
      username = "ann"
      password = "s3cret-pass"

      """
    try config.write(toFile: folder + "/config", atomically: true, encoding: .utf8)
    let environment = [
      "PYTHONPATH": Repository.root.appendingPathComponent(".build/python-vdir").path, "TZ": "UTC",
      "LC_ALL": "C.UTF-8",
    ]
    for arguments in [["discover"], ["sync"]] {
      let ran = try CLI.run(
        ["sh", "-c", "yes | python3 -m vdirsyncer -c \"$0\" \(arguments.joined(separator: " "))", folder + "/config"],
        environment: environment, program: URL(fileURLWithPath: "/usr/bin/env"))
      #expect(ran.status == 0, "vdirsyncer \(arguments): \(ran.stdout) \(ran.stderr)")
    }
    let directory = folder + "/local/" + collection
    return try FileManager.default.contentsOfDirectory(atPath: directory).map {
      try String(contentsOfFile: directory + "/" + $0, encoding: .utf8)
    }
  }

  /// The cards of every vCard text in `texts` as `vobject` reads them: UID, FN, emails, birthday.
  static func cards(_ texts: [String]) throws -> String {
    try CLI.python(
      """
      import sys, vobject
      rows = []
      for text in sys.argv[1:]:
          for card in vobject.readComponents(text):
              bday = card.contents["bday"][0].value if "bday" in card.contents else ""
              rows.append((card.uid.value, card.fn.value, sorted(e.value for e in card.contents.get("email", [])), bday))
      print(sorted(rows))
      """, texts)
  }

  @Test func aWatchingAppHearsOneNoticeForASyncNamingWhatItChanged() throws {
    let setup = try Sync.Setup()
    _ = try setup.add()
    let app = "com.example.planner"
    try setup.store.register(app)
    try setup.store.object(["access", "set", app, "--service", "calendars", "--status", "full"])
    let head = try #require(try setup.store.object(["status"])["head"] as? Int)
    let (watcher, output, errors) = try CLI.start([
      "watch", "--store", setup.store.directory.storePath, "--as", app, "--from", String(head + 1), "--limit", "1",
      "--format", "jsonl",
    ])
    #expect(try setup.server.put("/ann/work/party.ics", Sync.file(Sync.event("party@home", "Party", day: 20))) == "201")
    _ = try setup.sync()
    let heard = CLI.finish(watcher, output, errors)
    #expect(heard.status == 0, "\(heard.stderr)")
    let party = try #require(
      try setup.store.objects(["events", "--from", "2026-12-01", "--to", "2026-12-31"]).first {
        $0["title"] as? String == "Party"
      })
    #expect(heard.stdout.contains(try #require(party["id"] as? String)), "\(heard.stdout)")
    #expect(heard.stdout.split(separator: "\n").count == 1, "one sync, one notice: \(heard.stdout)")
  }
}
