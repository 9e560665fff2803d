import Logging

/// The logger of `kalends serve` and `kalends witness serve`: notices (an alarm as it fires),
/// warnings and errors on standard error, so that standard output carries only what the command
/// prints (`listening on …`).
enum ServerLogger {
  static func make(_ label: String) -> Logger {
    var logger = Logger(label: label) { StreamLogHandler.standardError(label: $0) }
    logger.logLevel = .notice
    return logger
  }
}
