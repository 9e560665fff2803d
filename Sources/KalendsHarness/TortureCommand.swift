import ArgumentParser

extension Harness {
  /// `kalends-harness torture`: the crash and concurrency harness's writer and checker (driven by
  /// `tools/crash-harness`).
  struct Torture: ParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "torture",
      abstract: "Run the crash harness's mixed workload, and check a store against what it acknowledged.",
      subcommands: [Writer.self, Check.self])
  }
}
