import Foundation
import KalendsTestSupport
import Testing

/// `kalends prompts answer --calendars` takes calendars by title, as every other `--calendars`
/// does, read from the running server.
@Suite("Prompts: chosen calendars answered by title")
struct PromptsAnswerByTitleTests {
  @Test func aPromptIsAnsweredWithCalendarsByTheirTitles() throws {
    let served = try ServedStore(["--listen", "127.0.0.1:0", "--prompt-timeout", "20"])
    let base = "http://" + (try #require(served.tcpAddress))
    let work = try served.store.calendar("Work")
    _ = try served.store.calendar("Health")
    try served.store.register("org.example.asking")
    let made = try served.store.object(["client", "token", "create", "org.example.asking", "--label", "dav"])
    let token = try #require(made["secret"] as? String)
    // Its first look at its calendars asks the person.
    let look = Process()
    look.executableURL = try ServedStore.curl()
    look.arguments = [
      "-s", "-u", "x:\(token)", "-X", "PROPFIND", "-H", "Depth: 1", base + "/dav/calendars/",
    ]
    let output = Pipe()
    look.standardOutput = output
    try look.run()
    let prompt = try #require(try served.waitForPrompts(1).first)
    let id = try #require(prompt["id"] as? Int)
    let unknown = try served.store.run(
      ["prompts", "answer", String(id), "allow", "--calendars", "Holidays", "--socket", served.socket])
    #expect(unknown.status == 66 && unknown.stderr.contains("no calendar is named"), "\(unknown.stderr)")
    let answered = try served.store.run(
      ["prompts", "answer", String(id), "allow", "--calendars", "work", "--socket", served.socket])
    #expect(answered.status == 0, "\(answered.stderr)")
    look.waitUntilExit()
    let listing = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    #expect(listing.contains(work) && !listing.contains("Health"), "\(listing)")
  }
}
