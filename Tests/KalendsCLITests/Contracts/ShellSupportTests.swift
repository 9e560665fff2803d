import Foundation
import KalendsTestSupport
import Testing

/// `tools/install-shell-support` installs what bash, zsh, fish and man need, generated from the
/// commands: bash completes `kalends event` with its subcommands, and `man` finds every page.
@Suite("Shell completions and man pages")
struct ShellSupportTests {
  static let script = Repository.root.appendingPathComponent("tools/install-shell-support").path

  @Test func completionsAndManPagesAreInstalledWhereShellsLook() throws {
    let directory = TemporaryDirectory("shell")
    let (data, config) = (directory.path + "/data", directory.path + "/config")
    let installed = try CLI.run(
      [], environment: ["XDG_DATA_HOME": data, "XDG_CONFIG_HOME": config, "KALENDS": CLI.executable.path],
      program: URL(fileURLWithPath: Self.script))
    #expect(installed.status == 0, "\(installed.stderr)")
    // bash, as bash-completion would load it: `kalends event <TAB>` offers history and restore.
    let bash = """
      source '\(data)/bash-completion/completions/kalends'
      COMP_WORDS=(kalends event ''); COMP_CWORD=2; COMP_LINE='kalends event '; COMP_POINT=${#COMP_LINE}
      _kalends; echo "${COMPREPLY[@]}"
      """
    let completed = try CLI.run(["-c", bash], program: URL(fileURLWithPath: "/bin/bash"))
    let offered = Set(completed.stdout.split(whereSeparator: \.isWhitespace).map(String.init))
    #expect(offered.isSuperset(of: ["add", "update", "history", "restore"]), "\(completed.stdout) \(completed.stderr)")
    let zsh = try String(contentsOfFile: data + "/zsh/site-functions/_kalends", encoding: .utf8)
    let fish = try String(contentsOfFile: config + "/fish/completions/kalends.fish", encoding: .utf8)
    #expect(zsh.hasPrefix("#compdef kalends") && zsh.contains("alarms"))
    #expect(fish.contains("alarms") && fish.contains("restore"))
    let pages = try FileManager.default.contentsOfDirectory(atPath: data + "/man/man1")
    #expect(pages.contains("kalends-event-history.1") && pages.contains("kalends-alarms.1"), "\(pages.count)")

    let wrong = try CLI.run(["--bogus"], program: URL(fileURLWithPath: Self.script))
    #expect(wrong.status == 64)
  }
}
