/// One privacy fact of the log, decoded for the audit.
public struct AuditEntry: Hashable, Sendable {
  /// Where it is in the log.
  public let position: LogPosition
  /// When it was appended.
  public let timestamp: Timestamp
  /// Who made it: the person, a client, a policy, the system.
  public let actor: Principal
  /// `clientRegistered`, `accessRequested`, `accessDecided`, `accessAttemptRefused`,
  /// `ownerActionRefused`, `clientTokenCreated`, `clientTokenRevoked`, `accessScopeChanged` or
  /// `contactPicked`.
  public let kind: RecordKind
  /// The client concerned.
  public let client: String
  /// The service (not for registrations).
  public let service: Service?
  /// The level asked for (requests).
  public let level: AccessLevel?
  /// The status returned, decided or refusing.
  public let status: AuthorizationStatus?
  /// The status before (decisions).
  public let previousStatus: AuthorizationStatus?
  /// Why (decisions).
  public let reason: DecisionReason?
  /// Whether the person was asked (requests).
  public let prompted: Bool?
  /// Whether the person was asked and did not answer in time (requests; TCC's `promptTimeout`).
  public let promptTimedOut: Bool?
  /// Whether the request was implicit: the app's use of the service asked, not a request call
  /// (an app built for iOS 5, the write-only app's first read; docs/privacy.md).
  public var isImplicit: Bool = false
  /// What was attempted (refusals).
  public let operation: String?
  /// How many calls were refused (refusals).
  public let count: Int?
  /// The minute of the refusals a refusal record counts (minutes since 1970-01-01T00:00Z); `nil`
  /// for other records.
  public private(set) var minute: Int64?
  /// When what it records happened: its ``timestamp``, except for the later refusals of a minute,
  /// counted and appended once the minute is over — those happened after the minute's first
  /// refusal (recorded at once) and before the minute ended, so they are placed just after that
  /// first refusal (at the minute's start when it is not at hand). ``PrivacyAudit/history(client:service:since:until:)``
  /// orders by it.
  public internal(set) var occurred: Timestamp
  /// The client's name (registrations), or the token's label (token creations).
  public let name: String?
  /// The token created or revoked (``ClientToken/id``).
  public let tokenID: String?
  /// The contacts the person chose for the app (`accessScopeChanged`), or the one picked for it
  /// (`contactPicked`).
  public var objects: [ObjectID] = []
  /// The contacts the person took out of the app's choice (`accessScopeChanged`).
  public var removedObjects: [ObjectID] = []
  /// How the actor was identified, for a record written through the store server; `nil` for
  /// the rest: an app's record without it was declared by its writer (`--as`), not identified.
  public let identification: CallerEvidence?

  init(_ header: LogRecordHeader, _ fields: PayloadReader, identification: CallerEvidence? = nil) throws(StoreError) {
    self.identification = identification
    position = header.position
    timestamp = header.timestamp
    occurred = header.timestamp
    actor = header.principal
    kind = header.kind
    client = try fields.requiredString(1)
    let isRegistration = header.kind == .clientRegistered
    func byte(_ tag: UInt8) throws(StoreError) -> UInt8? {
      try fields.unsigned(tag).map { UInt8(truncatingIfNeeded: $0) }
    }
    let isToken = header.kind == .clientTokenCreated || header.kind == .clientTokenRevoked
    let hasService = [RecordKind.accessRequested, .accessDecided, .accessAttemptRefused, .accessScopeChanged]
      .contains(header.kind)
    service =
      header.kind == .contactPicked ? .contacts : hasService ? try byte(2).flatMap(Service.init(rawValue:)) : nil
    name = isRegistration ? try fields.string(2) : header.kind == .clientTokenCreated ? try fields.string(4) : nil
    tokenID = isToken ? try fields.string(2) : nil
    switch header.kind {
    case .accessRequested:
      level = try byte(3).flatMap(AccessLevel.init(rawValue:))
      status = try byte(4).flatMap(AuthorizationStatus.init(rawValue:))
      prompted = try fields.bool(5)
      promptTimedOut = try fields.bool(6) ?? false
      isImplicit = try fields.bool(7) ?? false
      // The later requests of a minute that asked nobody, counted (docs/log-format.md).
      count = try fields.unsigned(8).map { Int(clamping: $0) }
      (previousStatus, reason, operation) = (nil, nil, nil)
    case .accessDecided:
      status = try byte(3).flatMap(AuthorizationStatus.init(rawValue:))
      previousStatus = try byte(4).flatMap(AuthorizationStatus.init(rawValue:))
      reason = try byte(5).flatMap(DecisionReason.init(rawValue:))
      (level, prompted, promptTimedOut, operation, count) = (nil, nil, nil, nil, nil)
    case .accessAttemptRefused:
      status = try byte(3).flatMap(AuthorizationStatus.init(rawValue:))
      operation = try fields.string(4)
      count = try fields.unsigned(5).map { Int(clamping: $0) }
      minute = try fields.signed(6)
      (level, previousStatus, reason, prompted, promptTimedOut) = (nil, nil, nil, nil, nil)
    case .ownerActionRefused:
      operation = try fields.string(4)
      (level, status, previousStatus, reason, prompted, promptTimedOut) = (nil, nil, nil, nil, nil, nil)
      // Written before refusals of owner-only actions were counted: one record per attempt.
      count = try fields.unsigned(5).map { Int(clamping: $0) } ?? 1
      minute = try fields.signed(6)
    case .accessScopeChanged:
      objects = try fields.objectIDs(3)
      removedObjects = try fields.objectIDs(4)
      (level, status, previousStatus, reason, prompted, promptTimedOut, operation, count) =
        (nil, nil, nil, nil, nil, nil, nil, nil)
    case .contactPicked:
      objects = try fields.objectIDs(2)
      (level, status, previousStatus, reason, prompted, promptTimedOut, operation, count) =
        (nil, nil, nil, nil, nil, nil, nil, nil)
    default:
      (level, status, previousStatus, reason, prompted, promptTimedOut, operation, count) =
        (nil, nil, nil, nil, nil, nil, nil, nil)
    }
  }
}
