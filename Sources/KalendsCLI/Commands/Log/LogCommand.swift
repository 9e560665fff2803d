import ArgumentParser

/// `kalends log`: reading and annotating the log.
struct LogCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "log",
    abstract: "Read the hash-chained log, or write a note into it.",
    subcommands: [LogTailCommand.self, LogShowCommand.self, LogHeadCommand.self, LogAnnotateCommand.self]
  )
}
