import Foundation
import KalendsTestSupport
import Testing

/// Calendar and contacts programs people use every day: vdirsyncer (PyPI) syncs a calendar and the
/// address book both ways with local folders, khal and khard read what it synced
/// (Tests/Oracles/dav_sync_check.py), every write a fact by the app its token identifies.
@Suite("vdirsyncer, khal and khard sync through CalDAV and CardDAV")
struct DAVSyncClientTests {
  static let script = Repository.root
    .appendingPathComponent("Tests/Oracles/dav_sync_check.py").path

  @Test func vdirsyncerSyncsBothWaysAndKhalAndKhardReadIt() throws {
    let served = try ServedStore(["--listen", "127.0.0.1:0"])
    let base = "http://" + (try #require(served.tcpAddress))
    let work = try served.store.calendar("Work")
    for (title, day) in [("Standup", "03"), ("Review", "04"), ("Retro", "05")] {
      try served.store.object([
        "event", "add", "--calendar", work, "--title", title, "--start", "2026-12-\(day)T10:00:00", "--end",
        "2026-12-\(day)T11:00:00",
      ])
    }
    for (given, family) in [("Ada", "Lovelace"), ("Alan", "Turing")] {
      try served.store.object(["contact", "add", "--given", given, "--family", family])
    }
    let secret = try served.tokenApp("org.pimutils.vdirsyncer", access: ["--status", "full"])
    try served.store.object(["access", "set", "org.pimutils.vdirsyncer", "--service", "contacts", "--status", "full"])

    let result = try CLI.run(
      ["python3", Self.script, base, secret, work], program: URL(fileURLWithPath: "/usr/bin/env"))
    #expect(result.status == 0, "\(result.stderr)")
    let summary = try #require(try json(result.stdout) as? [String: Any])
    #expect((summary["firstSync"] as? [String: Any])?["events"] as? Int == 3)
    #expect((summary["firstSync"] as? [String: Any])?["cards"] as? Int == 2)
    // Two left of the three, and the one made locally, stored under the random name vdirsyncer gave it.
    #expect(summary["khalEvents"] as? Int == 3)
    #expect((summary["madeHereUnderRandomName"] as? String)?.hasSuffix(".ics") == true)
    // One left of the two (the one made locally was removed on the server, out of its group).
    #expect(summary["khardCards"] as? Int == 1)
    #expect((summary["cardMadeHereUnderRandomName"] as? String)?.hasSuffix(".vcf") == true)
    let group = summary["groupRoundTrip"] as? [String: Any]
    #expect(group?["members"] as? Int == 2 && group?["memberLeftThere"] as? Bool == true, "\(summary)")

    // What it changed here reached the store as facts by the app.
    let byApp = { (kind: String) in
      try served.records(kind).filter {
        (($0["actor"] as? [String: Any])?["id"] as? String) == "org.pimutils.vdirsyncer"
      }
    }
    #expect(try byApp("contactSaved").count == 3, "the changed name, the card made here, its joining the group")
    #expect(try byApp("contactRemoved").count == 2, "one removed here, one there")
    #expect(try byApp("groupSaved").count == 1 && byApp("groupRemoved").count == 1)
    #expect(try byApp("eventSaved").count == 3, "a change, the conflict's side and the event made here")
    let contacts = try served.store.objects(["contact", "list"])
    #expect(contacts.count == 1)
  }
}
