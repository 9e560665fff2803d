import Foundation
import KalendsTestSupport
import Testing

/// docs/cli-reference.md is generated from the commands (`tools/cli-reference`): it must be what
/// the built `kalends` says of itself, and the man pages must come out of the same description.
@Suite("The command reference is the commands' own")
struct CLIReferenceTests {
  static let script = Repository.root.appendingPathComponent("tools/cli-reference").path

  @Test func theReferenceIsCurrent() throws {
    let check = try CLI.run(
      [Self.script, "--kalends", CLI.executable.path, "--check"], program: URL(fileURLWithPath: "/usr/bin/env"))
    #expect(check.status == 0, "\(check.stderr)")
  }

  @Test func everyCommandHasAManPage() throws {
    let directory = TemporaryDirectory("man")
    let written = try CLI.run(
      [Self.script, "--kalends", CLI.executable.path, "--man", directory.path],
      program: URL(fileURLWithPath: "/usr/bin/env"))
    #expect(written.status == 0, "\(written.stderr)")
    let pages = Set(try FileManager.default.contentsOfDirectory(atPath: directory.path))
    for page in ["kalends.1", "kalends-event-add.1", "kalends-client-token-revoke.1", "kalends-serve.1"] {
      #expect(pages.contains(page), "\(pages.sorted())")
    }
    let page = try String(contentsOfFile: directory.path + "/kalends-event-add.1", encoding: .utf8)
    #expect(page.hasPrefix(".TH \"KALENDS-EVENT-ADD\" 1"))
    #expect(page.contains("\\-\\-rrule"), "options are listed, their dashes escaped for roff")
  }
}
