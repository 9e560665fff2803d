import ArgumentParser

/// `kalends bench`: benchmark data.
struct BenchCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "bench",
    abstract: "Build deterministic benchmark data; measure change notices.",
    subcommands: [BenchGenerateCommand.self, BenchWriteCommand.self, BenchChangesCommand.self])
}
