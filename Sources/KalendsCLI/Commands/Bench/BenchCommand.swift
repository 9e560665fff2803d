import ArgumentParser

extension KalendsCommand {
  /// `kalends bench`: benchmark data.
  struct Bench: ParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "bench",
      abstract: "Build deterministic benchmark data and measure range queries on a store.",
      subcommands: [Generate.self, Range.self])
  }
}
