package import LMDB

/// A view of the log kept in its own LMDB databases: the current state of objects, the date-range
/// index, the permission state.
///
/// Projections are disposable: the log is the truth. Each one is applied to every record in the
/// same write transaction that appends the record, so it is never behind and never inconsistent
/// after a crash; its checkpoint (the last position applied) and its version are stored in the
/// store's metadata. When a projection's version changes, or it is new, the store rebuilds it
/// from the log when opened.
package protocol Projection: Sendable {
  /// The stable name: the key of its checkpoint.
  static var name: String { get }
  /// Bumped whenever what it stores or how it derives it changes; a store holding another
  /// version rebuilds the projection when opened.
  static var version: UInt32 { get }
  /// The LMDB databases it owns and nobody else writes. Rebuilding empties them.
  static var databaseNames: [String] { get }
  /// The record kinds it applies; records of other kinds never reach it.
  static var kinds: Set<RecordKind> { get }

  /// Wraps the opened databases, keyed by their names, and the log (which a projection may read,
  /// never write).
  init(databases: [String: Database], log: Database)

  /// Applies one record. Throwing rolls the whole write transaction back.
  func apply(_ header: LogRecordHeader, payload: RawSpan, in txn: inout WriteTransaction) throws

  /// A loader that rebuilds the projection from the whole log in memory, or `nil` to have its
  /// records applied one by one during the other loaders' scan (``ReplayLoader``).
  func makeBulkLoader() -> (any ProjectionBulkLoader)?
}

extension Projection {
  func makeBulkLoader() -> (any ProjectionBulkLoader)? { nil }

  /// Applies one record already in the log (a replay: catch-up, a rebuild's replay, `verify`),
  /// naming the record and the projection when it cannot
  /// (``StoreError/projection(_:cannotApply:_:)``).
  func replay(_ header: LogRecordHeader, payload: RawSpan, in txn: inout WriteTransaction) throws {
    do {
      try apply(header, payload: payload, in: &txn)
    } catch {
      throw StoreError.projection(Self.name, cannotApply: header.position, error)
    }
  }

  /// The databases it owns, in ``databaseNames`` order.
  package func databases(from all: [String: Database]) -> [Database] {
    Self.databaseNames.compactMap { all[$0] }
  }
}
