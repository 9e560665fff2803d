import Foundation
import KalendsTestSupport
import Testing

/// The report's timeline keeps the order of what happened: a minute's reads are not drawn before
/// the decision that allowed them, refusals not before the decision that denied them, and a
/// crowd of decisions is labelled with the status it ended in.
@Suite("Command line: the report's timeline keeps the order of what happened")
struct ReportTimelineOrderTests {
  @Test func readsFollowTheirGrantAndACrowdOfDecisionsShowsItsLastStatus() throws {
    // The decisions and reads share a minute with room before: the store's clock (the tests'
    // offset, carried to each `kalends`) is set to ten seconds into the next minute.
    let now = Int(Date().timeIntervalSince1970)
    let minute = (now / 60 + 1) * 60
    let clock = ["KALENDS_TEST_CLOCK_OFFSET": String(minute + 10 - now)]
    let store = try CLIStore()
    let work = try #require(try store.object(["calendar", "create", "Work"], environment: clock)["id"] as? String)
    let app = "com.example.planner"
    _ = try store.object(
      ["client", "register", app, "--name", "Planner", "--usage", "calendars-full=Your agenda."], environment: clock)
    for status in ["denied", "write-only", "full"] {
      _ = try store.object(["access", "set", app, "--service", "calendars", "--status", status], environment: clock)
    }
    #expect(try store.run(["event", "list", "--calendar", work, "--as", app], environment: clock).status == 0)
    let format = ISO8601DateFormatter()
    let since = format.string(from: Date(timeIntervalSince1970: TimeInterval(minute)))
    let until = format.string(from: Date(timeIntervalSince1970: TimeInterval(minute + 60)))
    let out = store.directory.path + "/report.html"
    let made = try store.run(
      ["audit", "report", "--out", out, "--since", since, "--until", until], environment: clock)
    #expect(made.status == 0, "\(made.stderr)")
    let html = try String(contentsOfFile: out, encoding: .utf8)
    let svg = try #require(html.components(separatedBy: "<svg class=\"timeline\"").dropFirst().first)

    // The three decisions, a second apart at most, share one label: the last status.
    let labels = Self.all(#"class="decision-label"[^>]*>([^<]*)<"#, in: svg)
    #expect(labels == ["full access"], "\(labels)")
    // The reads' bar is in the bin of the grant or after it, never before.
    let grant = try #require(
      Self.all(#"class="decision granted" points="([0-9.]+),"#, in: svg).first.flatMap(Double.init))
    let read = try #require(Self.all(#"class="use" x="([0-9.]+)""#, in: svg).first.flatMap(Double.init))
    #expect(Self.bin(read + 2) >= Self.bin(grant), "read at \(read + 2), granted at \(grant)")
  }

  /// The first capture of `pattern` at each match in `text`.
  static func all(_ pattern: String, in text: String) -> [String] {
    guard let expression = try? NSRegularExpression(pattern: pattern) else { return [] }
    return expression.matches(in: text, range: NSRange(text.startIndex..., in: text)).compactMap { match in
      Range(match.range(at: 1), in: text).map { String(text[$0]) }
    }
  }

  /// The timeline's bin (5 px from the plot's left at 96) of `x`.
  static func bin(_ x: Double) -> Int { Int(((x - 96) / 5).rounded(.down)) }
}
