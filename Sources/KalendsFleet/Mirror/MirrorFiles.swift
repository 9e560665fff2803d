import Foundation
import Kalends
internal import LMDB

/// The mirror's LMDB environment and databases, opened by the mirror that writes them and by the
/// fleet's audit that reads them (another process may hold the same files: LMDB serialises writers).
///
/// Databases:
/// - `records`: `store (16) ‖ position (8)` → the record's bytes, verified;
/// - `stores`: `store (16)` → 0, or 1 when the store is flagged, 2 when it is flagged because two of
///   its logs disagree (a fork, a checkpoint over other records);
/// - `alerts`: sequence (8) → the alert's fields ‖ 0 ‖ its evidence;
/// - `checkpoints`: `store ‖ 1` → the size of its last verified checkpoint; `store ‖ 2` → the one
///   waiting for the records its proof leads to; `store ‖ 3` → the signed note of the last verified;
/// - `audit`: `client ‖ 0 ‖ store (16) ‖ position (8)` → the record's time (8) ‖ kind (2): every verified record
///   the fleet's audit reads (`FleetAuditIndex`);
/// - `names`: `store (16) ‖ object (16)` → the name of a live calendar or contact (`FleetNames`);
/// - `meta`: `audit-index` → 1 once `audit` covers every record held; `names-index` → 1 once
///   `names` does.
struct MirrorFiles {
  let environment: Environment
  let records: Database
  let stores: Database
  let alerts: Database
  let checkpoints: Database
  let audit: Database
  let names: Database
  let meta: Database

  /// Opens (creating when `create`) the mirror's files in `directory`, and indexes the records held
  /// for the audit and names them when a mirror of an earlier version left them unindexed.
  init(directory: String, create: Bool) throws {
    if create {
      try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    } else if !FileManager.default.fileExists(atPath: directory + "/data.mdb") {
      throw FleetAuditError.noMirror(directory)
    }
    environment = try Environment(
      path: directory, options: EnvironmentOptions(mapSize: 1 << 30, growsMapAutomatically: true, maxDatabases: 8))
    (records, stores, alerts, checkpoints, audit, names, meta) = try environment.write { txn in
      (
        try txn.openDatabase(named: "records", options: .create),
        try txn.openDatabase(named: "stores", options: .create),
        try txn.openDatabase(named: "alerts", options: .create),
        try txn.openDatabase(named: "checkpoints", options: .create),
        try txn.openDatabase(named: "audit", options: .create),
        try txn.openDatabase(named: "names", options: .create),
        try txn.openDatabase(named: "meta", options: .create)
      )
    }
    try FleetAuditIndex.build(self)
    try FleetNames.build(self)
  }
}

/// Why the fleet's audit cannot answer.
package enum FleetAuditError: Error, CustomStringConvertible {
  /// No mirror's files in the directory.
  case noMirror(String)

  package var description: String {
    switch self {
    case .noMirror(let directory):
      "no mirror in \(directory): kalends fleet mirror --dir \(directory) creates one"
    }
  }
}
