import ArgumentParser
import Foundation
import Kalends
import KalendsCommandSupport
import KalendsFormats

extension KalendsCommand {
  /// `kalends verify`: walks the whole chain.
  struct Verify: ParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "verify",
      abstract: "Check the hash chain, then rebuild the projections aside and compare them with the live ones.",
      discussion: """
        First reads every page of the data file and checks its structure, so that a damaged file \
        gives an error rather than a crash. Then walks every record and link of the chain and reports \
        the first broken position. When the log \
        is intact, rebuilds every projection from it into scratch databases (the store is only read) \
        and compares digests, naming any projection database that diverges. Exits 0 when both hold \
        and 69 (integrity failure) otherwise.
        """)

    @OptionGroup var global: GlobalOptions

    @Option(help: "Output format.") var format: ObjectFormat = .configured

    @Flag(help: "Check the hash chain only, not the projections.") var logOnly = false

    func run() throws {
      if let damage = try Store.checkDataFile(at: global.storePath) {
        if format == .json {
          print(
            JSONValue.object([
              ("intact", .bool(false)), ("recordsChecked", .number(0)),
              ("problem", Self.json(damage)),
            ]).rendered())
        }
        CommandRunner.fail(
          "the data file is damaged: \(damage.detail)"
            + (damage.position == .none ? "" : "; the log is readable up to position \(damage.position.rawValue - 1)")
            + " — restore from a backup (kalends backup)",
          status: .integrity)
      }
      let store = try global.openStore(readOnly: true, for: "verify the store")
      let progress = ProgressLine(label: "verifying")
      let report = try store.verify { checked, head in progress.update(done: checked, total: Int(head.rawValue)) }
      progress.finish()
      var projections: ProjectionVerification?
      if report.isIntact && !logOnly {
        let rebuilding = ProgressLine(label: "rebuilding aside")
        projections = try store.verifyProjections { done, head in
          rebuilding.update(done: done, total: Int(head.rawValue))
        }
        rebuilding.finish()
      }
      switch format {
      case .json:
        var fields: [(String, JSONValue)] = [
          ("intact", .bool(report.isIntact)),
          ("recordsChecked", .number(Double(report.recordsChecked))),
          ("verifiedHead", .number(Double(report.verifiedHead.position.rawValue))),
          ("verifiedHeadHash", .string(report.verifiedHead.hash.hex)),
          ("recordedHead", .number(Double(report.recordedHead.position.rawValue))),
        ]
        fields += report.treeHead?.jsonFields ?? []
        if let problem = report.problem {
          fields.append(("problem", Self.json(problem)))
        }
        if let projections {
          fields.append(("projections", Self.json(projections)))
        }
        fields.append(("timestampAnomalyCount", .number(Double(report.timestampAnomalyCount))))
        fields.append(
          (
            "timestampAnomalies",
            .array(
              report.timestampAnomalies.map { anomaly in
                .object([
                  ("position", .number(Double(anomaly.position.rawValue))), ("kind", .string(anomaly.kind.rawValue)),
                  ("timestamp", .string(anomaly.timestamp.description)),
                  ("reference", .string(anomaly.reference.description)),
                ])
              })
          ))
        fields.append(("unprovenRecordCount", .number(Double(report.unprovenRecordCount))))
        fields.append(("unprovenRecords", .array(report.unprovenRecords.map { .number(Double($0.rawValue)) })))
        print(JSONValue.object(fields).rendered())
      case .table:
        if report.isIntact {
          print(
            "ok: \(counted(report.recordsChecked, "record")) verified, head \(report.verifiedHead.position) \(report.verifiedHead.hash)"
          )
          if let tree = report.treeHead {
            print("ok: Merkle tree of \(counted(tree.size, "record")) recomputed, root \(tree.root)")
          }
        }
        if let projections, projections.isConsistent {
          print(
            "ok: \(projections.live.count) projection databases equal a rebuild at position \(projections.position)")
        }
      }
      // Wrong timestamps leave the chain intact, so they warn; the audit's instants rest on them.
      for anomaly in report.timestampAnomalies {
        FileHandle.standardError.write(Data("warning: \(anomaly)\n".utf8))
      }
      if report.timestampAnomalyCount > report.timestampAnomalies.count {
        let more = report.timestampAnomalyCount - report.timestampAnomalies.count
        FileHandle.standardError.write(Data("warning: \(more) more records with wrong timestamps\n".utf8))
      }
      // Records erased from format 1 or 2 before erasures bound them: intact in the chain, but what
      // is left of them (time, actor, kind, kept fields) is proven by nothing.
      if report.unprovenRecordCount > 0 {
        let listed = report.unprovenRecords.map { "\($0)" }.joined(separator: ", ")
        let more = report.unprovenRecordCount - report.unprovenRecords.count
        FileHandle.standardError.write(
          Data(
            ("warning: \(counted(report.unprovenRecordCount, "record")) erased from format 1 or 2 are unproven "
              + "(their time, actor, kind and kept fields are bound by no hash): \(listed)"
              + (more > 0 ? " and \(more) more" : "") + "\n").utf8))
      }
      if let problem = report.problem {
        CommandRunner.fail(
          "the log is damaged at position \(problem.position) (\(problem.kind.rawValue)): \(problem.detail); "
            + "\(counted(report.recordsChecked, "record")) before it verified — restore from a backup",
          status: .integrity)
      }
      if let projections, !projections.isConsistent {
        let names = projections.divergent.map { name in
          "\(name) (live \(projections.live[name].map(String.init(describing:)) ?? "missing"), rebuilt \(projections.rebuilt[name].map(String.init(describing:)) ?? "missing"))"
        }
        CommandRunner.fail(
          "projections differ from a rebuild of the log at position \(projections.position): "
            + names.joined(separator: "; ") + " — run kalends rebuild",
          status: .integrity)
      }
    }

    static func json(_ problem: IntegrityProblem) -> JSONValue {
      .object([
        ("position", .number(Double(problem.position.rawValue))),
        ("kind", .string(problem.kind.rawValue)),
        ("detail", .string(problem.detail)),
      ])
    }

    static func json(_ verification: ProjectionVerification) -> JSONValue {
      .object([
        ("consistent", .bool(verification.isConsistent)),
        ("position", .number(Double(verification.position.rawValue))),
        ("divergent", .array(verification.divergent.map { .string($0) })),
        (
          "databases",
          .object(
            verification.live.keys.sorted().map { name in
              (
                name,
                .object([
                  ("entries", .number(Double(verification.live[name]?.entries ?? 0))),
                  ("sha256", .string(verification.live[name]?.sha256 ?? "")),
                  ("rebuiltSha256", .string(verification.rebuilt[name]?.sha256 ?? "")),
                ])
              )
            })
        ),
      ])
    }
  }
}
