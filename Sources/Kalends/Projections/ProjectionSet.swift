package import LMDB

/// Every projection of a store, with the databases they own.
package struct ProjectionSet: Sendable {
  /// The projections this version of Kalends maintains, in the order they are applied.
  static let types: [any Projection.Type] = [
    ObjectProjection.self, RangeProjection.self, PermissionProjection.self, RetentionProjection.self,
    ContactsProjection.self, ItemSearchProjection.self, OutboxProjection.self, PushProjection.self,
  ]

  /// The projections, in ``types`` order.
  package let projections: [any Projection]
  /// Every projection database by name.
  package let databases: [String: Database]

  /// The names of every projection database.
  static var databaseNames: [String] {
    var names: [String] = []
    for type in types { names += type.databaseNames }
    return names
  }

  /// The projections that apply each record kind, in ``types`` order.
  private let byKind: [RecordKind: [any Projection]]

  private init(databases: [String: Database], log: Database) {
    self.databases = databases
    let projections = Self.types.map { $0.init(databases: databases, log: log) }
    self.projections = projections
    var byKind: [RecordKind: [any Projection]] = [:]
    for projection in projections {
      for kind in type(of: projection).kinds { byKind[kind, default: []].append(projection) }
    }
    self.byKind = byKind
  }

  /// Opens (creating when missing) every projection database, and the log they read.
  static func open(in txn: inout WriteTransaction) throws -> ProjectionSet {
    var databases: [String: Database] = [:]
    for name in databaseNames {
      databases[name] = try txn.openDatabase(named: name)
    }
    return ProjectionSet(databases: databases, log: try txn.openDatabase(named: MetaKey.logDatabase))
  }

  /// Opens the projection databases of a store opened read-only; `nil` when one is missing.
  static func open(in txn: borrowing ReadTransaction) throws -> ProjectionSet? {
    let databases = try existingDatabases(in: txn)
    guard databases.count == databaseNames.count else { return nil }
    return ProjectionSet(databases: databases, log: try txn.openDatabase(named: MetaKey.logDatabase))
  }

  /// The projection databases that exist, by name, in a read-only transaction.
  static func existingDatabases(in txn: borrowing ReadTransaction) throws -> [String: Database] {
    var databases: [String: Database] = [:]
    for name in databaseNames {
      do {
        databases[name] = try txn.openDatabase(named: name)
      } catch LMDBError.notFound {
        continue
      }
    }
    return databases
  }

  /// Applies one record to every projection of its kind (most records reach none or one), after
  /// checking that its author may make it (``RecordAuthority``); throws ``RecordRefusal`` when not.
  func apply(_ header: LogRecordHeader, payload: RawSpan, in txn: inout WriteTransaction) throws {
    if let reason = RecordAuthority.violation(kind: header.kind, principal: header.principal, payload: payload) {
      throw RecordRefusal(reason: reason)
    }
    guard let targets = byKind[header.kind] else { return }
    for projection in targets { try projection.apply(header, payload: payload, in: &txn) }
  }

  /// Applies one record already in the log (a replay), naming the record and the projection when one
  /// cannot apply it (``StoreError/projection(_:cannotApply:_:)``), and the record as
  /// ``IntegrityProblem/Kind/unauthorizedRecord`` when its author may not make it.
  func replay(_ header: LogRecordHeader, payload: RawSpan, in txn: inout WriteTransaction) throws {
    if let reason = RecordAuthority.violation(kind: header.kind, principal: header.principal, payload: payload) {
      throw StoreError.unauthorizedRecord(at: header.position, reason)
    }
    guard let targets = byKind[header.kind] else { return }
    for projection in targets { try projection.replay(header, payload: payload, in: &txn) }
  }

  /// Records that every projection has applied the log up to `position`.
  /// Throws ``StoreError/projectionsBehind(_:at:head:)`` unless every projection is at `head` in
  /// this Kalends' version: a write must not apply its records to a projection another process is
  /// rebuilding or catching up (committed in chunks), nor to one of another version.
  func checkCurrent(at head: LogPosition, meta: Database, in txn: borrowing WriteTransaction) throws {
    for type in Self.types {
      let checkpoint = try ProjectionCheckpoint.load(type.name, meta: meta, in: txn)
      guard let checkpoint, checkpoint.version == type.version, checkpoint.position == head else {
        throw StoreError.projectionsBehind(
          type.name, at: checkpoint?.version == type.version ? checkpoint?.position ?? .none : .none, head: head)
      }
    }
  }

  func saveCheckpoints(at position: LogPosition, meta: Database, in txn: inout WriteTransaction) throws {
    for type in Self.types {
      try ProjectionCheckpoint(version: type.version, position: position).save(type.name, meta: meta, in: &txn)
    }
  }
}
