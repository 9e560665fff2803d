import ArgumentParser

/// `kalends bench`: benchmark data.
struct BenchCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "bench",
    abstract: "Build deterministic benchmark data and measure range queries on a store.",
    subcommands: [BenchGenerateCommand.self, BenchRangeCommand.self])
}
