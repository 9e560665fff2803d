import Foundation
import KalendsTestSupport
import Testing

/// The store server against its own OpenAPI document, checked by an independent tool: PyPI's
/// `schemathesis` generates requests from the document (valid and invalid ones, and sequences
/// of them) and checks every answer: no 5xx, documented statuses, content types and headers,
/// bodies and events that match their schemas, invalid input refused, unknown methods 405,
/// authentication enforced.
@Suite("The store server keeps its OpenAPI contract")
struct ServerContractTests {
  /// `schemathesis run`, through its module (the `st` script's path depends on the installation).
  static let schemathesis = """
    import os, sys
    os.chdir(os.environ["KALENDS_SCHEMATHESIS_DIR"])  # its caches, not in the working tree
    from schemathesis.cli import schemathesis
    sys.argv[0] = "schemathesis"
    sys.exit(schemathesis())
    """

  /// Several seeds: each finds other requests (the review found contract violations with seeds
  /// other than the one tested then).
  @Test(arguments: [20_261_125, 7, 44])
  func schemathesisFindsNoFailureOverTCP(seed: Int) throws {
    // The contact picker waits for the person, who never answers here: a short prompt timeout
    // makes it the documented 204 within schemathesis' request timeout.
    let served = try ServedStore(["--listen", "127.0.0.1:0", "--prompt-timeout", "1"])
    let base = "http://" + (try #require(served.tcpAddress))
    let token = try ServerTokenTests.tokenApp(served)
    let secret = try #require(token["secret"] as? String)
    let calendar = try served.store.calendar("Work")
    try served.store.object([
      "event", "add", "--title", "Standup", "--calendar", calendar, "--start", "2026-03-02T09:00:00", "--end",
      "2026-03-02T09:15:00", "--tz", "Europe/Berlin", "--rrule", "FREQ=DAILY;COUNT=10",
    ])
    // Every check but "a schema-valid request is accepted": the document cannot say that `to`
    // follows `from` or that write-only access exists for calendars only, so a request valid by
    // schema may be refused with 400, as it should be.
    let run = try CLI.run(
      [
        "python3", "-c", Self.schemathesis, "run", base + "/v1/openapi.json", "-H", "Authorization: Bearer \(secret)",
        "--checks", "all", "--exclude-checks", "positive_data_acceptance", "--max-examples", "20",
        "--request-timeout", "3", "--seed", String(seed), "--no-color",
      ], environment: ["KALENDS_SCHEMATHESIS_DIR": served.store.directory.path],
      program: URL(fileURLWithPath: "/usr/bin/env"))
    let summary = run.stdout.components(separatedBy: "SUMMARY").last ?? run.stdout
    #expect(run.status == 0, "schemathesis found failures:\n\(run.stdout.suffix(6000))\n\(run.stderr.suffix(2000))")
    #expect(summary.contains("Tested: 30"), "\(summary)")
    // The server is still answering, and the store is intact.
    let whoami = try ServerTokenTests.curl("GET", base + "/v1/whoami", token: secret)
    #expect(whoami.status == 200)
    #expect(try served.store.run(["verify"]).status == 0)
  }
}
