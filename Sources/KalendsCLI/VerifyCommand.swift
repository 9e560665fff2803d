import ArgumentParser
import Foundation
import Kalends

/// `kalends verify`: walks the whole chain.
struct VerifyCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "verify",
    abstract: "Check every record and link of the hash chain; report the first broken position.",
    discussion: "Exits 0 when the log is intact and 69 (integrity failure) at the first problem.")

  @OptionGroup var global: GlobalOptions

  @Option(help: "Output format.") var format: ObjectFormat = .table

  func run() throws {
    let store = try global.openStore(readOnly: true)
    let progress = ProgressLine(label: "verifying")
    let report = try store.verify { checked, head in progress.update(done: checked, total: Int(head.rawValue)) }
    progress.finish()
    switch format {
    case .json:
      var fields: [(String, JSONValue)] = [
        ("intact", .bool(report.isIntact)),
        ("recordsChecked", .number(Double(report.recordsChecked))),
        ("verifiedHead", .number(Double(report.verifiedHead.position.rawValue))),
        ("verifiedHeadHash", .string(report.verifiedHead.hash.hex)),
        ("recordedHead", .number(Double(report.recordedHead.position.rawValue))),
      ]
      if let problem = report.problem {
        fields.append(
          (
            "problem",
            .object([
              ("position", .number(Double(problem.position.rawValue))),
              ("kind", .string(problem.kind.rawValue)),
              ("detail", .string(problem.detail)),
            ])
          ))
      }
      print(JSONValue.object(fields).rendered())
    case .table:
      if report.isIntact {
        print(
          "ok: \(report.recordsChecked) records verified, head \(report.verifiedHead.position) \(report.verifiedHead.hash)"
        )
      }
    }
    if let problem = report.problem {
      KalendsCommand.fail(
        "the log is damaged at position \(problem.position) (\(problem.kind.rawValue)): \(problem.detail); "
          + "\(report.recordsChecked) records before it verified — restore from a backup",
        status: .integrity)
    }
  }
}
