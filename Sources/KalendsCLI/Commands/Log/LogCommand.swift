import ArgumentParser

extension KalendsCommand {
  /// `kalends log`: reading and annotating the log.
  struct Log: ParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "log",
      abstract: "Read the hash-chained log, or write a note into it.",
      subcommands: [Tail.self, Show.self, Head.self, Annotate.self]
    )
  }
}
