/// The outcome of walking the whole log and checking every link of the chain.
public struct VerificationReport: Hashable, Sendable {
  /// How many records were checked before the walk ended.
  public let recordsChecked: Int
  /// The head the walk ended at: the last record that checked out.
  public let verifiedHead: LogHead
  /// The head recorded in the store's metadata.
  public let recordedHead: LogHead
  /// The first problem found, or `nil` when the log is intact.
  public let problem: IntegrityProblem?
  /// The first timestamps found wrong (at most ``anomalyLimit``), in log order; they do not make
  /// the log less intact, but the audit's instants rest on them.
  public let timestampAnomalies: [TimestampAnomaly]
  /// How many records have a wrong timestamp in all.
  public let timestampAnomalyCount: Int
  /// The first records (at most ``unprovenLimit``) erased from format 1 or 2 by a version of
  /// Kalends that did not yet bind what erasure leaves of them: their hash no longer covers their
  /// header (time, actor, kind) and kept fields, so nothing proves those. They do not make the log
  /// less intact — the chain and the tree still hold each record's hash in place — but their
  /// fields must not be trusted. Erasures made since bind them (docs/log-format.md).
  public let unprovenRecords: [LogPosition]
  /// How many records are unproven in all.
  public let unprovenRecordCount: Int
  /// The Merkle tree head the records make, when the log and the stored tree are intact (`nil`
  /// otherwise, and for a store from before the tree opened read-only).
  public let treeHead: TreeHead?

  /// How many anomalies a report lists.
  public static let anomalyLimit = 20
  /// How many unproven records a report lists.
  public static let unprovenLimit = 20

  /// Whether every record and the head checked out.
  public var isIntact: Bool { problem == nil }
}
