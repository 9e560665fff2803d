import ArgumentParser
import Kalends
import KalendsCommandSupport
import KalendsFormats

/// `kalends-harness`: the processes the crash harness and the change-notice measurements run
/// beside `kalends`. Not a product: it writes seeded workloads, journals them and checks stores
/// after SIGKILLs, which no user of a calendar store runs.
@main
struct Harness: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "kalends-harness",
    abstract: "Test and measurement processes for Kalends (crash torture, paced writers, notice probes, yardsticks).",
    discussion: """
      Run by tools/crash-harness, tools/damage-fuzz and the CLI tests. Exit statuses as `kalends`'s.
      """,
    version: Store.softwareVersion,
    subcommands: [
      Torture.self, Write.self, Changes.self, Erasure.self, Contacts.self, Reads.self, Serve.self, FleetRaw.self,
      Guard.self,
    ]
  )

  static func main() async {
    await CommandRunner.run(Self.self, arguments: Array(CommandLine.arguments.dropFirst()))
  }
}
