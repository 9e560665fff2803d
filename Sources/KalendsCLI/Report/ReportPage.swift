import Foundation
import Kalends
import KalendsCommandSupport
import KalendsFormats

/// A ``PrivacyReport`` as one self-contained HTML page: no network (its content security policy
/// forbids every fetch), no external asset, opening from disk. Tables carry `data-` attributes
/// holding the values `kalends audit … --format json` prints, for tools and tests; the words are
/// for people.
struct ReportPage {
  let report: PrivacyReport

  /// How many apps get a drawn timeline (the most active of the window); the rest are listed.
  static let timelineLimit = 60

  /// Writes `report`'s page to `path`, replacing any file there; returns its size in bytes.
  @discardableResult
  static func write(_ report: PrivacyReport, to path: String) throws -> Int {
    try HTMLText.write(page: ReportPage(report: report).render(), to: path)
  }

  func render() -> String {
    var out = """
      <!doctype html>
      <html lang="en"><head><meta charset="utf-8">
      <meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; \
      script-src 'unsafe-inline'">
      <meta name="viewport" content="width=device-width, initial-scale=1">
      <meta name="generator" content="kalends audit report">
      <title>Privacy report — \(e(report.origin))</title>
      <style>\(ReportStyle.text)</style></head>
      <body data-verification="pending">
      """
    out += header()
    out += lastWeek()
    out += apps()
    out += timelines()
    out += decisions()
    out += reads()
    out += chosen()
    out += policies()
    out += unidentified()
    out += verification()
    out += "<script type=\"application/json\" id=\"kalends-proofs\">\(HTMLText.scriptJSON(proofData()))</script>\n"
    out += "<script>\(ReportScript.text)</script>\n</body></html>\n"
    return out
  }

  // MARK: Sections

  private func header() -> String {
    let window =
      switch (report.since, report.until) {
      case (nil, nil): "the whole history"
      case (let since?, nil): "from \(since)"
      case (nil, let until?): "until \(until)"
      case (let since?, let until?): "from \(since) until \(until)"
      }
    let registered = Set(report.states.map(\.client)).count
    let reads = report.uses.reduce(0) { $0 + $1.count }
    return """
      <header><h1>Privacy report</h1>
      <p class="lead">Store <code>\(e(report.origin))</code> · \(report.logSize) records in its log · \
      \(e(window)) · made \(report.generated) (times in UTC)</p>
      <p>\(registered) apps registered; in this window \(report.timeline.entries.count) privacy records, \
      \(reads) reads by apps, \(report.unidentified.reduce(0) { $0 + $1.count }) refused connections of callers \
      the server could not identify.</p>
      <p id="verdict" role="status" data-state="unchecked">The proofs are checked by this page's script; \
      with scripts off, check them with the commands under <a href="#verification">Verification</a>.</p>
      <nav aria-label="Sections"><ol><li><a href="#last-week">The last seven days</a></li>\
      <li><a href="#apps">Apps at a glance</a></li>\
      <li><a href="#timelines">Timelines</a></li><li><a href="#decisions">Decisions and their proofs</a></li>\
      <li><a href="#reads">What apps read</a></li><li><a href="#chosen">Chosen calendars and contacts</a></li>\
      <li><a href="#policies">Policies in force</a></li><li><a href="#unidentified">Callers not identified</a></li>\
      <li><a href="#verification">Verification</a></li></ol></nav></header>
      <main>

      """
  }

  /// The question App Privacy Report answers first, in words and the person's time: which apps
  /// looked at the calendars, reminders and contacts in the seven days before the report, how often
  /// and when last, and which were refused. Apps that did neither — not asked yet among them — are
  /// folded away below; the proofs and the records follow in the sections after.
  private func lastWeek() -> String {
    let zone = LocalZone.current
    let nouns: [Service: String] = [
      .calendars: "your calendars", .reminders: "your reminders", .contacts: "your contacts",
    ]
    var active: [String] = []
    var quiet: [String] = []
    var order: [String] = []
    var rows: [String: [AuditAppRow]] = [:]
    for row in report.apps {
      if rows[row.state.client] == nil { order.append(row.state.client) }
      rows[row.state.client, default: []].append(row)
    }
    for client in order {
      let services = rows[client] ?? []
      var parts: [String] = []
      for row in services where row.reads7d > 0 {
        let when = row.lastRead.map { " — last " + Self.localTime($0.start, in: zone) } ?? ""
        parts.append(
          "looked at \(nouns[row.state.service] ?? row.state.service.description) \(Self.times(row.reads7d))\(when)")
      }
      for row in services where row.refusals7d > 0 {
        parts.append(
          "was refused access to \(nouns[row.state.service] ?? row.state.service.description) \(Self.times(row.refusals7d))"
        )
      }
      let app = "<strong>\(e(report.names.app(client)))</strong>"
      if parts.isEmpty {
        let statuses = services.map { "\(nouns[$0.state.service] ?? "") \($0.state.status.words)" }
        quiet.append("<li data-client=\"\(e(client))\">\(app): \(e(statuses.joined(separator: "; ")))</li>")
      } else {
        active.append("<li data-client=\"\(e(client))\">\(app) \(e(parts.joined(separator: "; "))).</li>")
      }
    }
    var out = """
      <section id="last-week" aria-labelledby="last-week-title"><h2 id="last-week-title">The last seven days</h2>
      <p class="muted">Which apps looked at your calendars, reminders and contacts in the seven days before \
      this report, how often and when last (your time, \(e(zone.identifier))). Every figure is below with its \
      records and proofs.</p>

      """
    out += active.isEmpty ? "<p>No app looked at anything.</p>\n" : "<ul class=\"last-week\">\(active.joined())</ul>\n"
    if !quiet.isEmpty {
      out += """
        <details><summary>\(quiet.count) apps looked at nothing and were refused nothing</summary>\
        <ul>\(quiet.joined())</ul></details>

        """
    }
    return out + "</section>\n"
  }

  /// `n times`, in words for one and two.
  static func times(_ count: Int) -> String {
    switch count {
    case 1: "once"
    case 2: "twice"
    default: "\(count) times"
    }
  }

  /// An instant as the person reads it in `zone`: `2026-11-29 07:21 +01:00`.
  static func localTime(_ instant: Timestamp, in zone: ZoneRules) -> String {
    let text = AuditTimeline.text(instant, in: zone)
    return String(text.prefix(10) + " " + text.dropFirst(11).prefix(5) + " " + text.suffix(6))
  }

  /// One table per app, its name as the caption: a long list of apps is laid out only where it is
  /// on screen (`content-visibility` per app; one table of thousands of rows is laid out whole
  /// before anything is shown), and the fixed column widths keep the tables aligned.
  private func apps() -> String {
    var out = """
      <section id="apps" aria-labelledby="apps-title"><h2 id="apps-title">Apps at a glance</h2>
      <p class="muted">Each registered app and service now; reads and refusals of the seven days before \
      the report (<code>kalends audit apps</code>).</p>

      """
    let head = """
      <thead><tr><th scope="col">Service</th><th scope="col">Status now</th>\
      <th scope="col">Why</th><th scope="col">Last read</th><th scope="col">Last read came</th>\
      <th scope="col" class="num">Reads, 7 days</th><th scope="col" class="num">Refused, 7 days</th></tr></thead>
      """
    // `audit apps` lists each app's services together: a table for each run of one app's rows.
    for (index, row) in report.apps.enumerated() {
      let state = row.state
      if index == 0 || report.apps[index - 1].state.client != state.client {
        if index > 0 { out += "</tbody></table></div>\n" }
        out += "<div class=\"app\"><table><caption>\(e(report.names.app(state.client)))</caption>\(head)<tbody>\n"
      }
      let lastRead = row.lastRead?.start.description ?? ""
      let caller = row.lastRead?.caller ?? ""
      out += """
        <tr data-client="\(e(state.client))" data-service="\(state.service.description)" \
        data-app="\(e(report.names.apps[state.client] ?? ""))">\
        <th scope="row" data-field="service" data-value="\(state.service.description)">\(state.service.description)</th>\
        <td data-field="status" data-value="\(state.status.description)"><span class="status \
        \(ReportTimeline.statusClass(state.status))">\(e(state.status.words))</span></td>\
        <td data-field="reason" data-value="\(state.reason?.description ?? "")">\(e(state.reason?.words ?? "—"))</td>\
        <td data-field="lastRead" data-value="\(lastRead)">\(lastRead.isEmpty ? "never" : Self.time(lastRead))</td>\
        <td data-field="lastCaller" data-value="\(caller)">\(e(Self.callerWords(caller)))</td>\
        <td class="num" data-field="reads7d">\(row.reads7d)</td>\
        <td class="num" data-field="refusals7d">\(row.refusals7d)</td></tr>

        """
    }
    out += report.apps.isEmpty ? "<p>No app is registered.</p>\n" : "</tbody></table></div>\n"
    return out + "</section>\n"
  }

  private func timelines() -> String {
    let axis = timelineAxis()
    var lanes: [String: [Service: ReportTimeline.Lane]] = [:]
    func lane(_ client: String, _ service: Service, _ change: (inout ReportTimeline.Lane) -> Void) {
      change(&lanes[client, default: [:]][service, default: ReportTimeline.Lane(service: service)])
    }
    let listed = Set(report.decisions.map(\.position))
    for entry in report.timeline.entries {
      guard let service = entry.service else { continue }
      switch entry.kind {
      case _ where listed.contains(entry.position): lane(entry.client, service) { $0.decisions.append(entry) }
      case .accessRequested: lane(entry.client, service) { $0.requests.append(entry) }
      case .accessAttemptRefused:
        // When they happened, not when a minute's count was written (``AuditEntry/occurred``).
        lane(entry.client, service) { $0.refusals.append((entry.occurred, entry.count ?? 1)) }
      default: continue
      }
    }
    let decided = Dictionary(
      report.timeline.entries.map { ($0.position, $0.occurred) }, uniquingKeysWith: { first, _ in first })
    for refusal in report.timeline.pending {
      guard let service = refusal.service else { continue }
      lane(refusal.client, service) { $0.refusals.append((refusal.time, refusal.count)) }
    }
    for use in report.uses {
      // A minute's reads are drawn at its start, or just after the decision in force at its last
      // read when that fell in the minute: never before the decision that allowed them.
      var drawn = use.start
      if let position = use.decision, let time = decided[position], time >= use.start, time < use.end {
        drawn = Timestamp(rawValue: time.rawValue + 1)
      }
      lane(use.client, use.service) {
        $0.uses.append(use)
        $0.reads.append((drawn, use.count))
      }
    }
    let weight = { (lanes: [Service: ReportTimeline.Lane]) in
      lanes.values.reduce(0) { $0 + $1.decisions.count + $1.requests.count + $1.refusals.count + $1.uses.count }
    }
    let ranked = lanes.sorted { weight($0.value) > weight($1.value) }
    let drawn = ranked.prefix(Self.timelineLimit).sorted { report.names.app($0.key) < report.names.app($1.key) }
    var out = """
      <section id="timelines" aria-labelledby="timelines-title"><h2 id="timelines-title">Timelines</h2>
      <p class="muted">Per app, a lane per service from \(Self.localTime(axis.start, in: axis.zone)) to \
      \(Self.localTime(axis.end, in: axis.zone)) (your time, \(e(axis.zone.identifier))). Each shape's title \
      says what it stands for; the caption under each timeline says it in words.</p>
      <ul class="legend" aria-label="Legend">\
      <li><svg width="14" height="14" aria-hidden="true"><polygon points="7,1 13,7 7,13 1,7" fill="#1b7f3b" \
      stroke="#000"/></svg>decision, labelled with the new status (green: full access; amber: write-only or \
      limited; red: denied or restricted; grey: not asked yet)</li>\
      <li><svg width="14" height="14" aria-hidden="true"><circle cx="7" cy="7" r="4.5" fill="#fff" stroke="#1b1b1b" \
      stroke-width="1.4"/></svg>request</li>\
      <li><svg width="14" height="14" aria-hidden="true"><path d="M3 3L11 11M3 11L11 3" stroke="#b3261e" \
      stroke-width="2"/></svg>refused calls</li>\
      <li><svg width="14" height="14" aria-hidden="true"><rect x="5" y="2" width="4" height="11" fill="#2f5fb3"/>\
      </svg>reads (taller: more)</li></ul>

      """
    if drawn.isEmpty { out += "<p>Nothing happened in this window.</p>\n" }
    for (index, (client, byService)) in drawn.enumerated() {
      let lanes = Service.allCases.compactMap { byService[$0] }
      let id = "timeline-\(index)"
      out += "<figure data-client=\"\(e(client))\"><h3>\(e(report.names.app(client)))</h3>"
      out += axis.svg(app: client, lanes: lanes, names: report.names, id: id)
      out += "<figcaption id=\"\(id)-caption\">\(e(caption(client, lanes)))</figcaption></figure>\n"
    }
    if ranked.count > drawn.count {
      let rest = ranked.dropFirst(Self.timelineLimit).map { report.names.app($0.key) }.sorted()
      out += "<p>\(rest.count) less active apps are not drawn: \(e(rest.joined(separator: ", "))).</p>\n"
    }
    return out + "</section>\n"
  }

  private func decisions() -> String {
    var out = """
      <section id="decisions" aria-labelledby="decisions-title"><h2 id="decisions-title">Decisions and their proofs</h2>
      <p class="muted">Every change of an app's access, choice of calendars or contacts, and contact handed \
      out in the window, each with the proof that its record is in the log the checkpoint signs. The \
      proof column is filled by this page's script.</p>

      """
    if report.decisionsOmitted > 0 {
      out += """
        <p>\(report.decisionsOmitted) earlier decisions of the window are not listed (the latest \
        \(report.decisions.count) are): narrow the window with --since and --until, or list them all with \
        <code>kalends audit history</code>.</p>

        """
    }
    out += """
      <table><thead><tr><th scope="col">Time</th><th scope="col">App</th><th scope="col">Decision</th>\
      <th scope="col">By</th><th scope="col" class="num">Record</th><th scope="col">Proof</th></tr></thead><tbody>

      """
    // The proof covers the record: its calendars and contacts by id. Their titles are today's, which
    // an app may have chosen: they are shown beside the proven words, said to be current, never in them.
    let byID = AuditNames(apps: report.names.apps)
    for decision in report.decisions {
      let status = decision.status.map { " " + ReportTimeline.statusClass($0) } ?? ""
      let named = (decision.objects + decision.removedObjects).compactMap { id -> String? in
        let name = report.names.object(id)
        return name == id.description ? nil : "\(id.description.prefix(8))… is now “\(name)”"
      }
      let current =
        named.isEmpty
        ? ""
        : "<br><small class=\"current-names\" title=\"today's titles: not part of the record the proof covers\">"
          + e(named.joined(separator: "; ")) + " (today's title, not proven)</small>"
      out += """
        <tr data-position="\(decision.position.rawValue)" data-client="\(e(decision.client))" \
        data-kind="\(decision.kind.name)">\
        <td>\(Self.time(decision.timestamp.description))</td><th scope="row">\(e(report.names.app(decision.client)))</th>\
        <td><span class="\(status.isEmpty ? "" : "status" + status)">\(e(decision.sentence(names: byID)))\
        </span>\(current)</td><td>\(e(Self.actorWords(decision.actor)))</td>\
        <td class="num">\(decision.position.rawValue)</td>\
        <td class="proof" data-proof="pending">not checked: this needs the page's script, or the commands \
        under Verification</td></tr>

        """
    }
    if report.decisions.isEmpty { out += "<tr><td colspan=\"6\">No decision in this window.</td></tr>\n" }
    return out + "</tbody></table></section>\n"
  }

  private func reads() -> String {
    // Per app, service and operation (each group's intervals oldest first), by app, service, operation.
    let groups = Dictionary(grouping: report.uses) { "\($0.client)\u{0}\($0.service.rawValue)\u{0}\($0.operation)" }
    let ordered = groups.values.sorted {
      (report.names.app($0[0].client), $0[0].service.rawValue, $0[0].operation)
        < (report.names.app($1[0].client), $1[0].service.rawValue, $1[0].operation)
    }
    var out = """
      <section id="reads" aria-labelledby="reads-title"><h2 id="reads-title">What apps read</h2>
      <p class="muted">Per app, service and operation: how many reads, in how many minutes, and which \
      calendars (or chosen contacts) they touched — never what was read (<code>kalends audit uses</code>).</p>
      <table><thead><tr><th scope="col">App</th><th scope="col">Service</th><th scope="col">Operation</th>\
      <th scope="col" class="num">Reads</th><th scope="col" class="num">Minutes</th><th scope="col">First</th>\
      <th scope="col">Last</th><th scope="col">Touched</th><th scope="col">Caller</th></tr></thead><tbody>

      """
    for intervals in ordered {
      let use = intervals[0]
      var touched: [ObjectID] = []
      for object in intervals.flatMap(\.objects) where !touched.contains(object) { touched.append(object) }
      let callers = Set(intervals.map(\.caller))
      out += """
        <tr data-client="\(e(use.client))" data-service="\(use.service.description)" \
        data-operation="\(e(use.operation))"><th scope="row">\(e(report.names.app(use.client)))</th>\
        <td>\(use.service.description)</td><td>\(e(use.operation))</td>\
        <td class="num" data-field="count">\(intervals.reduce(0) { $0 + $1.count })</td>\
        <td class="num">\(intervals.count)</td>\
        <td>\(Self.time(use.start.description))</td><td>\(Self.time(intervals[intervals.count - 1].start.description))</td>\
        <td>\(e(touched.map(report.names.object).joined(separator: ", ")))</td>\
        <td>\(callers.count > 1 ? "identified and declared" : callers.first ?? "")</td></tr>

        """
    }
    if ordered.isEmpty { out += "<tr><td colspan=\"9\">No app read anything in this window.</td></tr>\n" }
    return out + "</tbody></table></section>\n"
  }

  private func chosen() -> String {
    let limited = report.states.filter { $0.chosen != nil }
    var out = """
      <section id="chosen" aria-labelledby="chosen-title"><h2 id="chosen-title">Chosen calendars and contacts</h2>
      <p class="muted">Apps whose access the person limited to some calendars or contacts; the rest see \
      everything their status allows.</p>
      <table><thead><tr><th scope="col">App</th><th scope="col">Service</th><th scope="col">Status</th>\
      <th scope="col">Chosen</th></tr></thead><tbody>

      """
    for state in limited {
      let names = (state.chosen ?? []).map(report.names.object)
      out += """
        <tr data-client="\(e(state.client))" data-service="\(state.service.description)">\
        <th scope="row">\(e(report.names.app(state.client)))</th><td>\(state.service.description)</td>\
        <td><span class="status \(ReportTimeline.statusClass(state.status))">\(e(state.status.words))</span></td>\
        <td>\(e(names.isEmpty ? "none yet" : names.joined(separator: ", ")))</td></tr>

        """
    }
    if limited.isEmpty { out += "<tr><td colspan=\"4\">No app is limited to chosen calendars or contacts.</td></tr>\n" }
    return out + "</tbody></table></section>\n"
  }

  private func policies() -> String {
    let actors = Dictionary(
      report.timeline.entries.map { ($0.position, $0.actor) }, uniquingKeysWith: { first, _ in first })
    let restricted = report.states.filter { $0.status == .restricted }
    var out = """
      <section id="policies" aria-labelledby="policies-title"><h2 id="policies-title">Policies in force</h2>
      <p class="muted">Access a policy restricts: neither the app nor the person can change it until the \
      policy lifts it.</p>
      <table><thead><tr><th scope="col">Policy</th><th scope="col">App</th><th scope="col">Service</th>\
      <th scope="col" class="num">Decision</th></tr></thead><tbody>

      """
    for state in restricted {
      var policy = "a policy"
      if let decision = state.decision, case .policy(let name)? = actors[decision] { policy = name }
      out += """
        <tr data-client="\(e(state.client))" data-service="\(state.service.description)"><td>\(e(policy))</td>\
        <th scope="row">\(e(report.names.app(state.client)))</th><td>\(state.service.description)</td>\
        <td class="num">\(state.decision.map { String($0.rawValue) } ?? "—")</td></tr>

        """
    }
    if restricted.isEmpty { out += "<tr><td colspan=\"4\">No policy restricts any app.</td></tr>\n" }
    return out + "</tbody></table></section>\n"
  }

  private func unidentified() -> String {
    var out = """
      <section id="unidentified" aria-labelledby="unidentified-title">\
      <h2 id="unidentified-title">Callers the server could not identify</h2>
      <p class="muted">Processes and network peers the store server refused because they matched no \
      registered app (a changed binary, an unknown token), with what the kernel said about them; and apps \
      whose records were written in their own process (declared, not identified) are marked \
      <em>declared</em> in the tables above.</p>
      <table><thead><tr><th scope="col">Time</th><th scope="col">How it came</th><th scope="col">Who</th>\
      <th scope="col" class="num">Refused</th><th scope="col" class="num">Record</th></tr></thead><tbody>

      """
    for caller in report.unidentified {
      let evidence = caller.evidence
      let who: String
      if let address = evidence.address {
        who = "\(address)" + (evidence.tokenID.map { ", token \($0)" } ?? ", no token")
      } else {
        let digest =
          evidence.executableSHA256.map { " (SHA-256 " + $0.prefix(8).map(Self.hexByte).joined() + "…)" } ?? ""
        who =
          "\(evidence.executable ?? "unknown executable")\(digest), uid \(evidence.uid.map(String.init) ?? "?"), "
          + "pid \(evidence.pid.map(String.init) ?? "?")" + (evidence.flatpakApp.map { ", Flatpak \($0)" } ?? "")
      }
      out += """
        <tr data-position="\(caller.position.rawValue)"><td>\(Self.time(caller.timestamp.description))</td>\
        <td>\(evidence.address == nil ? "Unix socket" : "TCP")</td><td>\(e(who))</td>\
        <td class="num">\(caller.count)</td><td class="num">\(caller.position.rawValue)</td></tr>

        """
    }
    if report.unidentified.isEmpty { out += "<tr><td colspan=\"5\">None in this window.</td></tr>\n" }
    return out + "</tbody></table></section>\n"
  }

  private func verification() -> String {
    let store = Self.shellQuoted(report.storePath)
    let key = report.logKey?.description ?? "VKEY"
    var out = """
      <section id="verification" aria-labelledby="verification-title"><h2 id="verification-title">Verification</h2>
      <p>The log is a hash chain whose records are the leaves of a Merkle tree; the store's key signs \
      checkpoints of that tree (C2SP signed notes), and witnesses cosign them. This page holds the latest \
      checkpoint and, for each decision listed, its record's bytes and inclusion path. Its script checks, \
      with your browser's Web Crypto (SHA-256, Ed25519), that the checkpoint is signed by the log's key, \
      that each record hashes to what it carries and says what its row shows, and that its path leads to \
      the checkpoint's root. Nothing is fetched from anywhere.</p>
      <p id="checkpoint-status" role="status" data-state="unchecked">The checkpoint has not been checked.</p>
      <p id="witness-status" role="status">\(report.witnesses.isEmpty ? "No witness keys were given: cosignatures are shown, not checked." : "Witness cosignatures not checked yet.")</p>

      """
    if let checkpoint = report.checkpoint {
      out += "<h3>Checkpoint</h3><pre id=\"checkpoint\">\(e(checkpoint.description))</pre>\n"
    } else {
      out += "<p><strong>No checkpoint is kept in this store</strong>: sign one with <code>kalends checkpoint sign "
      out += "--key KEYFILE --store \(e(store))</code> and make the report again.</p>\n"
    }
    out += """
      <h3>Keys</h3>
      <p>Log key the page checks with: <code id="log-key">\(e(report.logKey?.description ?? "none given (--key)"))\
      </code>. A page cannot vouch for the key it carries: compare it with the key you hold, or paste yours \
      to check again with it.</p>
      <form id="key-form"><label for="key-input">Log's verifier key</label>\
      <input id="key-input" name="key" autocomplete="off" spellcheck="false" placeholder="NAME+KEYID+KEY">\
      <button type="submit">Check with this key</button></form>

      """
    if !report.witnesses.isEmpty {
      out += "<p>Witnesses (\(report.quorum) of \(report.witnesses.count) needed):</p><ul>"
      for witness in report.witnesses { out += "<li><code>\(e(witness.description))</code></li>" }
      out += "</ul>\n"
    }
    let witnesses = report.witnesses.map { " --witness \(Self.shellQuoted($0.description))" }.joined()
    out += """
      <h3>The same check, offline</h3>
      <p>For any decision's record position P, on a machine you trust:</p>
      <pre>kalends audit prove P --store \(e(store)) --out P.tlog-proof
      kalends audit check-proof P.tlog-proof --key \(e(Self.shellQuoted(key)))\(e(witnesses))\
      \(report.witnesses.isEmpty ? "" : " --quorum \(report.quorum)")
      kalends audit verify --store \(e(store))</pre>
      <p>The first two need only the bundle and the key; the third replays the whole log.</p>
      </section>
      </main>

      """
    return out
  }

  // MARK: Helpers

  private func e(_ text: String) -> String { HTMLText.escape(text) }

  /// The axis of every timeline: the window, or where it is open the span of what happened.
  private func timelineAxis() -> ReportTimeline {
    var times = report.timeline.entries.map(\.timestamp) + report.uses.map(\.end)
    times += report.timeline.pending.map(\.time)
    let first = report.since ?? times.min() ?? report.generated
    var last = report.until ?? max(times.max() ?? report.generated, first)
    if last.rawValue - first.rawValue < 60_000_000 { last = Timestamp(rawValue: first.rawValue + 60_000_000) }
    let margin = (last.rawValue - first.rawValue) / 50
    return ReportTimeline(
      start: report.since ?? Timestamp(rawValue: first.rawValue - margin),
      end: report.until ?? Timestamp(rawValue: last.rawValue + margin), zone: LocalZone.current)
  }

  private func caption(_ client: String, _ lanes: [ReportTimeline.Lane]) -> String {
    let parts = lanes.map { lane -> String in
      let refused = lane.refusals.reduce(0) { $0 + $1.1 }
      let reads = lane.uses.reduce(0) { $0 + $1.count }
      let statuses = lane.decisions.compactMap { $0.status?.words }
      let decided = statuses.isEmpty ? "no decision" : "decisions: " + statuses.joined(separator: " → ")
      return "\(lane.service): \(decided); \(lane.requests.reduce(0) { $0 + ($1.count ?? 1) }) requests, "
        + "\(refused) refused calls, \(reads) reads in \(lane.uses.count) minutes"
    }
    return report.names.app(client) + " — " + parts.joined(separator: ". ") + "."
  }

  /// What the record of `decision` must state, for the page's script: its position, kind and actor,
  /// and its payload's fields by tag (strings, unsigned numbers, lists of UUIDs).
  static func expectation(_ decision: AuditEntry) -> JSONValue {
    var fields: [(String, JSONValue)] = [("1", .string(decision.client))]
    let uuids = { (ids: [ObjectID]) in JSONValue.array(ids.map { .string($0.description.lowercased()) }) }
    switch decision.kind {
    case .accessDecided:
      fields += [
        ("2", .number(Double(decision.service?.rawValue ?? 0))),
        ("3", .number(Double(decision.status?.rawValue ?? 0))),
        ("4", .number(Double(decision.previousStatus?.rawValue ?? 0))),
        ("5", .number(Double(decision.reason?.rawValue ?? 0))),
      ]
    case .accessScopeChanged:
      fields += [
        ("2", .number(Double(decision.service?.rawValue ?? 0))), ("3", uuids(decision.objects)),
        ("4", uuids(decision.removedObjects)),
      ]
    case .contactPicked:
      fields.append(("2", uuids(decision.objects)))
    default: break
    }
    return .object([
      ("position", .number(Double(decision.position.rawValue))),
      ("kind", .number(Double(decision.kind.rawValue))),
      ("actorType", .number(Double(Self.actorCode(decision.actor)))),
      ("actor", .string(decision.actor.identifier)),
      ("fields", .object(fields)),
    ])
  }

  /// The data the script checks: the checkpoint, the keys and each decision's proof. The
  /// proofs' paths name their hashes by index into `nodes`, each hash once: proofs of records near
  /// each other share the upper part of their paths, so the page is smaller and read faster.
  private func proofData() -> String {
    var nodes: [JSONValue] = []
    var nodeIndex: [String: Int] = [:]
    let proofs = report.decisions.compactMap { decision -> JSONValue? in
      guard let proof = report.proofs[decision.position] else { return nil }
      let path = proof.inclusion.path.map { hash -> JSONValue in
        let text = hash.base64
        if let index = nodeIndex[text] { return .number(Double(index)) }
        nodeIndex[text] = nodes.count
        nodes.append(.string(text))
        return .number(Double(nodes.count - 1))
      }
      return .object([
        ("position", .number(Double(decision.position.rawValue))),
        ("expect", Self.expectation(decision)),
        ("record", .string(Data(proof.record).base64EncodedString())),
        ("index", .number(Double(proof.inclusion.leafIndex))),
        ("path", .array(path)),
      ])
    }
    return JSONValue.object([
      ("origin", .string(report.origin)),
      ("checkpoint", report.checkpoint.map { .string($0.description) } ?? .null),
      ("logKey", report.logKey.map { .string($0.description) } ?? .null),
      ("witnesses", .array(report.witnesses.map { .string($0.description) })),
      ("quorum", .number(Double(report.quorum))),
      ("nodes", .array(nodes)),
      ("proofs", .array(proofs)),
    ]).rendered()
  }

  /// The actor's code in the log (docs/log-format.md §2).
  static func actorCode(_ actor: Principal) -> Int {
    switch actor {
    case .system: 0
    case .person: 1
    case .client: 2
    case .policy: 3
    case .source: 4
    }
  }

  static func actorWords(_ actor: Principal) -> String {
    switch actor {
    case .person: "the person"
    case .system: "the system"
    case .policy(let name): "policy “\(name)”"
    case .client(let id): "the app (\(id))"
    case .source(let id): "the account or subscription \(id)"
    }
  }

  /// An instant as the log prints it (`2026-11-27T18:40:58.130500Z`) shown as
  /// `2026-11-27 18:40:58`, the whole instant kept in a `<time>` element.
  static func time(_ instant: String) -> String {
    let short = instant.count >= 19 ? instant.prefix(10) + " " + instant.dropFirst(11).prefix(8) : Substring(instant)
    return "<time datetime=\"\(HTMLText.escape(instant))\">\(HTMLText.escape(String(short)))</time>"
  }

  static func callerWords(_ caller: String) -> String {
    switch caller {
    case "identified": "through the server, identified"
    case "declared": "in its own process, declared"
    default: "—"
    }
  }

  static func hexByte(_ byte: UInt8) -> String {
    let digits = String(byte, radix: 16)
    return digits.count == 1 ? "0" + digits : digits
  }

  /// `text` as one shell word.
  static func shellQuoted(_ text: String) -> String {
    guard text.contains(where: { !($0.isLetter || $0.isNumber || "/._-+=:@".contains($0)) }) else { return text }
    return "'" + text.split(separator: "'", omittingEmptySubsequences: false).joined(separator: "'\\''") + "'"
  }
}
