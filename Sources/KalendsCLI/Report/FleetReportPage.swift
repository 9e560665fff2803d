import Foundation
import Kalends
import KalendsCommandSupport
import KalendsFleet
import KalendsFormats

/// A ``FleetReport`` as one self-contained HTML page that opens from disk: no script, no network
/// (its content security policy forbids every fetch), no external asset. Rows carry `data-`
/// attributes holding the values `kalends fleet audit … --format json` prints, for tools and tests;
/// the words are for people.
struct FleetReportPage {
  let report: FleetReport

  /// Writes `report`'s page to `path`, replacing any file there; returns its size in bytes.
  @discardableResult
  static func write(_ report: FleetReport, to path: String) throws -> Int {
    try HTMLText.write(page: FleetReportPage(report: report).render(), to: path)
  }

  func render() -> String {
    let flagged = report.stores.filter(\.flagged).count
    let instant = report.instant.map { "access at \($0)" } ?? "access at the head of what is verified"
    return """
      <!doctype html>
      <html lang="en"><head><meta charset="utf-8">
      <meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'">
      <meta name="viewport" content="width=device-width, initial-scale=1">
      <meta name="generator" content="kalends fleet audit report">
      <title>Fleet privacy report — \(e(report.directory))</title>
      <style>\(ReportStyle.text)</style></head>
      <body>
      <header><h1>Fleet privacy report</h1>
      <p class="lead">Mirror <code>\(e(report.directory))</code> · stores held: \(report.stores.count), \
      flagged: \(flagged) · apps: \(report.apps.count) · \(e(instant)) · made \(report.generated) (times in UTC)</p>
      <p>Every answer comes from records the mirror verified against each store's own log; a flagged \
      store's answers end at its last verified record.</p>
      <nav aria-label="Sections"><ol><li><a href="#stores">Stores</a></li>\
      <li><a href="#apps">Apps across the fleet</a></li><li><a href="#access">Access, store by store</a></li>\
      <li><a href="#verification">Verification</a></li></ol></nav></header>
      <main>
      \(stores())\(apps())\(access())\(verification())</main></body></html>

      """
  }

  private func e(_ text: String) -> String { HTMLText.escape(text) }

  private func stores() -> String {
    var out = """
      <section id="stores"><h2>Stores</h2>
      <table><thead><tr><th>Store</th><th>Standing</th><th>Records verified</th>\
      <th>Last checkpoint verified</th></tr></thead><tbody>

      """
    for store in report.stores {
      out += """
        <tr data-store="\(store.store)" data-standing="\(store.standing)" data-verified-size="\(store.verifiedSize)" \
        data-checkpoint="\(store.checkpoint.map(String.init) ?? "")"\(store.flagged ? " class=\"flagged\"" : "")>\
        <td><code>\(store.store)</code></td><td>\(store.flagged ? "flagged: broke a rule of its log" : "verified")\
        </td><td>\(store.verifiedSize)</td><td>\(store.checkpoint.map { "\($0) records" } ?? "none")</td></tr>

        """
    }
    return out + "</tbody></table></section>\n"
  }

  private func apps() -> String {
    let services = Service.allCases
    var out = """
      <section id="apps"><h2>Apps across the fleet</h2>
      <p>For each service: the stores where the app could use it, and those where it was denied.</p>
      <table><thead><tr><th>App</th><th>Stores</th>\(services.map { "<th>\($0)</th>" }.joined())</tr></thead><tbody>

      """
    for app in report.apps {
      let counts = services.map { service in
        "data-\(service)=\"\(app.may[service] ?? 0)\" data-\(service)-denied=\"\(app.denied[service] ?? 0)\""
      }
      let cells = services.map { service in
        "<td>\(app.may[service] ?? 0) may use · \(app.denied[service] ?? 0) denied</td>"
      }
      out += """
        <tr data-client="\(e(app.client))" data-stores="\(app.stores)" \(counts.joined(separator: " "))>\
        <td>\(e(AuditNames(apps: [app.client: app.name ?? ""]).app(app.client)))</td><td>\(app.stores)</td>\
        \(cells.joined())</tr>

        """
    }
    return out + "</tbody></table></section>\n"
  }

  private func access() -> String {
    var out = """
      <section id="access"><h2>Access, store by store</h2>
      <table><thead><tr><th>Store</th><th>App</th><th>Service</th><th>Status</th><th>Decision</th>\
      <th>Why</th><th>Given</th></tr></thead><tbody>

      """
    for found in report.states {
      let state = found.state
      let decision = state.decision.map { String($0.rawValue) } ?? ""
      // What the status lets it use: nothing, everything of the service, or what was chosen.
      let given =
        !state.allows(state.service)
        ? "—"
        : found.chosenNames.map { $0.isEmpty ? "none chosen" : $0.joined(separator: ", ") } ?? "all \(state.service)"
      out += """
        <tr data-store="\(found.store)" data-client="\(e(state.client))" data-service="\(state.service)" \
        data-status="\(state.status)" data-decision="\(decision)"><td><code>\(found.store)</code></td>\
        <td>\(e(AuditNames(apps: [state.client: found.app ?? ""]).app(state.client)))</td><td>\(state.service)</td>\
        <td>\(e(state.status.words))</td><td>\(decision.isEmpty ? "—" : "position \(decision)")</td>\
        <td>\(e(state.reason?.words ?? "—"))</td><td>\(e(given))</td></tr>

        """
    }
    return out + "</tbody></table></section>\n"
  }

  private func verification() -> String {
    let directory = e(report.directory)
    return """
      <section id="verification"><h2>Verification</h2>
      <p>The mirror verified every record it holds as <code>kalends verify</code> verifies a store: its hash, \
      the chain, who may make it, the Merkle tree; and each store's checkpoints under the key the \
      organisation enrolled for it. Check what it holds and answer again:</p>
      <pre>kalends fleet audit stores --dir \(directory)
      kalends fleet audit state --dir \(directory) --format json</pre>
      <p>The mirror's verdicts, with each store's checkpoint cosigned by the mirror's key, are in the \
      organisation's key-value bucket of verdicts (docs/fleet.md).</p></section>

      """
  }
}
