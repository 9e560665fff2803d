import Kalends
import KalendsFormats

/// What `kalends audit report` shows, read from one store in one go: the apps at a glance, the
/// privacy timeline and the reads of the window, the choices and policies in force, the callers
/// the server could not identify, and the proof of every decision listed against the latest kept
/// checkpoint. ``ReportPage`` renders it.
struct PrivacyReport {
  /// The log's origin in checkpoints (`kalends/<store id>`).
  let origin: String
  /// When the report was made.
  let generated: Timestamp
  /// The window (`nil`: open).
  let since: Timestamp?
  let until: Timestamp?
  /// The log's size when read.
  let logSize: UInt64
  /// `kalends audit apps`' rows, at `generated`.
  let apps: [AuditAppRow]
  /// The privacy records of the window (as `kalends audit history`).
  let timeline: AuditTimeline
  /// The reads of the window.
  let uses: [AccessUse]
  /// Every app's status now.
  let states: [AccessState]
  /// Names of apps, calendars and contacts.
  let names: AuditNames
  /// Callers refused as unidentified in the window.
  let unidentified: [UnidentifiedCaller]
  /// The decisions listed (the latest ``decisionLimit`` of the window), oldest first.
  let decisions: [AuditEntry]
  /// How many decisions of the window are counted but not listed.
  let decisionsOmitted: Int
  /// The latest kept checkpoint, when one was signed.
  let checkpoint: SignedNote?
  /// The proof of each listed decision the checkpoint covers, by position.
  let proofs: [LogPosition: RecordProof]
  /// The log's verifier key the page checks the checkpoint with, when given.
  let logKey: NoteVerifier?
  /// The witnesses' keys, and how many of them must have cosigned.
  let witnesses: [NoteVerifier]
  let quorum: Int
  /// The store's path, for the commands the page prints.
  let storePath: String

  /// The kinds listed as decisions and proven: status changes, choices of calendars or contacts,
  /// contacts handed out with the picker.
  static let decisionKinds: Set<RecordKind> = [.accessDecided, .accessScopeChanged, .contactPicked]

  /// At most this many decisions are listed (and proven) — the latest of the window; the rest are
  /// counted per app, so that a report of a long history stays a file a browser opens at once.
  static let decisionLimit = 2_000

  init(
    store: Store, storePath: String, since: Timestamp?, until: Timestamp?, logKey: NoteVerifier?,
    witnesses: [NoteVerifier], quorum: Int, now: Timestamp = .now()
  ) throws {
    let audit = PrivacyAudit(store: store)
    let owner = EventStore(store: store)
    origin = store.origin
    generated = now
    self.since = since
    self.until = until
    self.storePath = storePath
    self.logKey = logKey
    self.witnesses = witnesses
    self.quorum = quorum
    logSize = try store.head().position.rawValue
    names = try AuditNames(owner)
    states = try audit.state()
    timeline = try AuditTimeline(audit, since: since, until: until)
    let allUses = try audit.uses()
    // As `kalends audit uses --since --until` windows them.
    uses = allUses.filter { $0.starts(since: since, until: until) }
    let weekAgo = AuditAppRow.weekBefore(now)
    // The window's timeline holds the last week's refusals when it covers the week: read the log once.
    let coversWeek = (since.map { $0 <= weekAgo } ?? true) && until == nil
    let recentRefusals =
      coversWeek
      ? timeline.refusals(since: weekAgo) : try AuditTimeline(audit, since: weekAgo).refusals(since: weekAgo)
    apps = AuditAppRow.rows(states: states, uses: allUses, refusals: recentRefusals, now: now)
    unidentified = try audit.unidentifiedCallers(since: since, until: until)
    let allDecisions = timeline.entries.filter { Self.decisionKinds.contains($0.kind) }
    decisions = Array(allDecisions.suffix(Self.decisionLimit))
    decisionsOmitted = allDecisions.count - decisions.count
    let checkpoint = try store.latestCheckpoint()
    self.checkpoint = checkpoint
    var proofs: [LogPosition: RecordProof] = [:]
    if let checkpoint, let size = try? Checkpoint(parsing: checkpoint.text).treeHead.size {
      for decision in decisions where decision.position.rawValue <= size {
        proofs[decision.position] = try store.proveRecord(at: decision.position, against: checkpoint)
      }
    }
    self.proofs = proofs
  }
}
