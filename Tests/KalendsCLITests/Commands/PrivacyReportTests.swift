import Foundation
import KalendsTestSupport
import Testing

/// The privacy report opened from disk in a real browser — Debian's Chromium, headless — whose
/// DOM after the page's script ran is read by Python's own HTML parser (Tests/Oracles/report_dom_check.py).
@Suite("Command line: the privacy report in a browser")
struct PrivacyReportTests {
  static let root = Repository.root
  static let tools = root.appendingPathComponent("tools")
  static let oracles = root.appendingPathComponent("Tests/Oracles")

  @Test func theDemoReportShowsWhatTheCLISaysProvesEveryDecisionAndShowsTampering() throws {
    let (directory, store, demo) = try Self.demo("report")
    let report = directory.storePath + ".report.html"
    #expect(demo.stdout.contains(report), "the demo prints where its report is")
    let html = try String(contentsOfFile: report, encoding: .utf8)
    // Self-contained: nothing loaded from anywhere, and a policy that forbids it.
    #expect(html.contains("default-src 'none'"))
    #expect(!html.contains("src=") && !html.contains("href=\"http") && !html.contains("url("))

    // First, App Privacy Report's question in words: which apps looked at what in the last seven
    // days, how often and when last; the apps that did nothing folded away.
    let lastWeek = try #require(html.range(of: "<section id=\"last-week\""), "no summary first")
    let glance = try #require(html.range(of: "<section id=\"apps\""))
    #expect(lastWeek.lowerBound < glance.lowerBound)
    let summary = String(html[lastWeek.lowerBound..<glance.lowerBound])
    #expect(summary.contains("looked at your calendars") && summary.contains("— last 20"), "\(summary)")
    #expect(summary.contains("<details><summary>"), "the quiet apps are folded: \(summary)")

    // A decision's calendars are proven by id; their titles are today's, shown apart and said so.
    let decisionsStart = try #require(html.range(of: "<section id=\"decisions\""))
    let decisionsEnd = try #require(html.range(of: "</section>", range: decisionsStart.upperBound..<html.endIndex))
    let decisionRows = String(html[decisionsStart.lowerBound..<decisionsEnd.upperBound])
    #expect(decisionRows.contains("is now “Work” (today") && decisionRows.contains("not proven)"), "\(decisionRows)")
    #expect(!decisionRows.contains("chosen by the person: given Work"), "a title inside the proven words")

    let page = try Self.dom(of: report)
    #expect(page["verification"] as? String == "done", "the page's script finished: \(page)")
    // Apps at a glance: the same rows, names, statuses and counts as `kalends audit apps`.
    let cli = try #require(
      try json(try CLI.run(["audit", "apps", "--format", "json"] + store).stdout) as? [[String: Any]])
    let shown = try #require(page["apps"] as? [[String: Any]])
    #expect(shown.count == cli.count && !cli.isEmpty)
    for (row, expected) in zip(shown, cli) {
      for field in ["client", "app", "service", "status", "reason", "lastRead", "lastCaller"] {
        #expect(
          row[field] as? String == expected[field] as? String,
          "\(field) of \(expected["client"] ?? "")/\(expected["service"] ?? "")")
      }
      for field in ["reads7d", "refusals7d"] {
        #expect((row[field] as? Int) == (expected[field] as? Int), "\(field) of \(expected["client"] ?? "")")
      }
    }
    // Every decision of the history is listed, and every one is proven.
    let history = try #require(
      try json(try CLI.run(["audit", "history", "--format", "json"] + store).stdout) as? [[String: Any]])
    let decisions = history.filter {
      ["accessDecided", "accessScopeChanged", "contactPicked"].contains($0["kind"] as? String ?? "")
    }.compactMap { $0["position"] as? Int }
    let proofs = try #require(page["proofs"] as? [[String: Any]])
    #expect(proofs.compactMap { $0["position"] as? Int } == decisions)
    #expect(
      proofs.allSatisfy { $0["state"] as? String == "proven" },
      "\(proofs.filter { $0["state"] as? String != "proven" })")
    #expect((page["verdict"] as? [String: Any])?["state"] as? String == "proven", "\(page["verdict"] ?? "")")

    // The checkpoint's signature altered by one byte: nothing is proven, and the page says so.
    let forgedSignature = directory.path + "/signature.html"
    try Self.alter(report, to: forgedSignature) { data in
      var lines = (data["checkpoint"] as! String).split(separator: "\n", omittingEmptySubsequences: false).map(
        String.init)
      let line = try #require(lines.lastIndex { $0.hasPrefix("\u{2014} ") })
      var parts = lines[line].split(separator: " ").map(String.init)
      var signature = try #require(Data(base64Encoded: parts[2]))
      signature[20] ^= 0x01
      parts[2] = signature.base64EncodedString()
      lines[line] = parts.joined(separator: " ")
      data["checkpoint"] = lines.joined(separator: "\n")
    }
    let unsigned = try Self.dom(of: forgedSignature)
    let unsignedProofs = try #require(unsigned["proofs"] as? [[String: Any]])
    #expect(!unsignedProofs.isEmpty && unsignedProofs.allSatisfy { $0["state"] as? String != "proven" })
    #expect((unsigned["verdict"] as? [String: Any])?["state"] as? String == "failed", "\(unsigned["verdict"] ?? "")")

    // One byte of one decision's record altered: that decision fails, the others stay proven.
    let forgedRecord = directory.path + "/record.html"
    var altered = 0
    try Self.alter(report, to: forgedRecord) { data in
      var proofs = data["proofs"] as! [[String: Any]]
      var record = try #require(Data(base64Encoded: proofs[1]["record"] as! String))
      record[record.count - 70] ^= 0x01
      proofs[1]["record"] = record.base64EncodedString()
      altered = proofs[1]["position"] as! Int
      data["proofs"] = proofs
    }
    let broken = try Self.dom(of: forgedRecord)
    let brokenProofs = try #require(broken["proofs"] as? [[String: Any]])
    for proof in brokenProofs {
      let position = proof["position"] as? Int
      #expect(proof["state"] as? String == (position == altered ? "failed" : "proven"), "\(proof)")
    }
    #expect(
      (brokenProofs.first { $0["position"] as? Int == altered }?["text"] as? String)?.contains("altered") == true)
    #expect((broken["verdict"] as? [String: Any])?["state"] as? String == "failed")

    // A screenshot and a PDF, as a person makes them with tools/report-screenshot.
    let shots = try CLI.run(
      [Self.tools.appendingPathComponent("report-screenshot").path, report, directory.path + "/shots"],
      program: URL(fileURLWithPath: "/usr/bin/env"))
    #expect(shots.status == 0, "\(shots.stderr)")
    let png = try Data(contentsOf: URL(fileURLWithPath: directory.path + "/shots/report.png"))
    let pdf = try Data(contentsOf: URL(fileURLWithPath: directory.path + "/shots/report.pdf"))
    #expect(png.starts(with: [0x89, 0x50, 0x4E, 0x47]) && png.count > 10_000)
    #expect(pdf.starts(with: Array("%PDF".utf8)) && pdf.count > 10_000)
  }

  @Test func aReportWithoutAKeyOrWithAnotherKeyProvesNothing() throws {
    let (directory, store, _) = try Self.demo("report-keys")
    let without = directory.path + "/without.html"
    let made = try CLI.run(["audit", "report", "--out", without] + store)
    #expect(made.status == 0, "\(made.stderr)")
    let unchecked = try Self.dom(of: without)
    let proofs = try #require(unchecked["proofs"] as? [[String: Any]])
    #expect(!proofs.isEmpty && proofs.allSatisfy { $0["state"] as? String == "unchecked" }, "\(proofs)")
    #expect((unchecked["verdict"] as? [String: Any])?["state"] as? String == "unchecked")
    // Another log's key: the checkpoint is not signed by it.
    let keyFile = directory.path + "/other.key"
    let generated = try CLI.run(["key", "generate", "other", "--out", keyFile])
    try #require(generated.status == 0, "\(generated.stderr)")
    let other = try #require(
      generated.stdout.split(separator: "\n").first { $0.hasPrefix("other+") }.map(String.init), "\(generated.stdout)")
    let wrong = directory.path + "/wrong.html"
    #expect(try CLI.run(["audit", "report", "--out", wrong, "--key", other] + store).status == 0)
    let refused = try Self.dom(of: wrong)
    #expect((refused["proofs"] as? [[String: Any]])?.allSatisfy { $0["state"] as? String != "proven" } == true)
    #expect((refused["verdict"] as? [String: Any])?["state"] as? String == "failed")
    // A key that is none is refused before anything is written.
    let bad = try CLI.run(["audit", "report", "--out", directory.path + "/bad.html", "--key", "nonsense"] + store)
    #expect(bad.status != 0 && !FileManager.default.fileExists(atPath: directory.path + "/bad.html"))
  }

  /// A demo store (`kalends demo`) in a new directory: the directory, its `--store` arguments and
  /// what the demo printed.
  static func demo(_ name: String) throws -> (TemporaryDirectory, [String], CLI.Result) {
    let directory = TemporaryDirectory(name)
    let store = ["--store", directory.storePath]
    let demo = try CLI.run(["demo"] + store)
    try #require(demo.status == 0, "\(demo.stderr)")
    return (directory, store, demo)
  }

  /// The report's DOM once its script ran, as Tests/Oracles/report_dom_check.py reads it.
  ///
  /// A machine loaded by the whole suite can leave the page's script still checking when the
  /// browser's time budget ends: the page is read again with a larger budget, twice at most.
  static func dom(of report: String) throws -> [String: Any] {
    var answer: [String: Any] = [:]
    for budget in [15_000, 60_000, 120_000] {
      let browser = try CLI.run(
        [
          "chromium", "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
          "--virtual-time-budget=\(budget)", "--dump-dom", "file://" + report,
        ], program: URL(fileURLWithPath: "/usr/bin/env"))
      try #require(browser.status == 0, "chromium is needed (tools/setup installs it): \(browser.stderr)")
      let dom = report + ".dom"
      try browser.stdout.write(toFile: dom, atomically: true, encoding: .utf8)
      let checked = try CLI.run(
        ["python3", oracles.appendingPathComponent("report_dom_check.py").path, dom],
        program: URL(fileURLWithPath: "/usr/bin/env"))
      try #require(checked.status == 0, "\(checked.stderr)")
      answer = try #require(try json(checked.stdout) as? [String: Any])
      if answer["verification"] as? String == "done" { break }
    }
    return answer
  }

  /// Writes `report` to `copy` with the proof data its script checks changed by `change`.
  static func alter(_ report: String, to copy: String, _ change: (inout [String: Any]) throws -> Void) throws {
    let html = try String(contentsOfFile: report, encoding: .utf8)
    let open = try #require(html.range(of: "<script type=\"application/json\" id=\"kalends-proofs\">"))
    let close = try #require(html.range(of: "</script>", range: open.upperBound..<html.endIndex))
    var data = try #require(
      try JSONSerialization.jsonObject(with: Data(html[open.upperBound..<close.lowerBound].utf8)) as? [String: Any])
    try change(&data)
    let encoded = String(decoding: try JSONSerialization.data(withJSONObject: data), as: UTF8.self)
    try (String(html[..<open.upperBound]) + encoded + String(html[close.lowerBound...]))
      .write(toFile: copy, atomically: true, encoding: .utf8)
  }
}
