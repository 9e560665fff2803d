/// Why a privacy operation or a client's call was refused. Each case says what to do.
public enum AccessError: Error, Hashable, Sendable, CustomStringConvertible {
  /// No client with this identifier is registered.
  case clientNotRegistered(String)
  /// The client identifier is not valid.
  case invalidClientID(String)
  /// The client may not do this with the service in its current status.
  case accessDenied(client: String, service: Service, status: AuthorizationStatus, operation: String)
  /// The client asked for a level without the usage description that explains it; the request was
  /// denied and recorded.
  case missingUsageDescription(client: String, usage: String)
  /// Write-only access exists for calendars only.
  case levelNotAvailable(Service, AccessLevel)
  /// A policy restricts the service for this client; the person cannot change it until it is lifted.
  case restrictedByPolicy(client: String, service: Service)
  /// The service is not restricted for this client, so there is nothing to lift.
  case notRestricted(client: String, service: Service)
  /// `policy` does not restrict the service for this client; the policies in `by` do, and only
  /// each of them can lift its own restriction.
  case restrictedByOtherPolicies(client: String, service: Service, policy: String, by: [String])
  /// The session ended because access was changed from outside the app at this position.
  case sessionTerminated(client: String, at: LogPosition)
  /// Only the person who owns the store may do this, not a client session.
  case ownerOnly(String)
  /// A session for an app was asked for with evidence its code requirement does not accept.
  case notIdentified(client: String)
  /// The app has no live token with this id (never created, or revoked).
  case tokenNotFound(client: String, token: String)
  /// The token the session's caller presented was revoked: the session ended.
  case tokenRevoked(client: String, token: String)
  /// The record would break the log's rules of authorship (who may make which record, which
  /// decision may follow which); nothing was written.
  case recordRefused(String)
  /// The app was built for a system (``Client/sdk``) that has no such request call: `api` names the
  /// call; nothing was asked or recorded.
  case requestUnavailable(client: String, sdk: Int, api: String)
  /// The call was refused, but the refusal could not be recorded (the store is open read-only, or
  /// the write failed): the reason says why.
  indirect case refusalNotRecorded(AccessError, reason: String)
  /// The app may read this, but its read could not be recorded (the store is open read-only, or
  /// the write failed), so nothing was answered: the reason says why.
  case useNotRecorded(client: String, service: Service, reason: String)
  /// Another registered app holds the executable or the Flatpak id `requirement` names: a process
  /// matching two apps is identified as neither, so the second registration is refused.
  case requirementHeld(client: String, requirement: String, holder: String)

  /// The broad class of the failure.
  public var category: StoreError.Category {
    switch self {
    case .clientNotRegistered, .tokenNotFound: .notFound
    case .invalidClientID, .levelNotAvailable, .notRestricted, .requestUnavailable: .invalidInput
    case .useNotRecorded: .storage
    case .requirementHeld: .conflict
    default: .accessRefused
    }
  }

  public var description: String {
    switch self {
    case .clientNotRegistered(let id): "no client \(id) is registered — register it first (kalends client register)"
    case .invalidClientID(let id):
      "\"\(Principal.escaped(id))\" is not a client identifier — use a bundle identifier: 1–255 ASCII letters, "
        + "digits, '-' and '.' (com.example.planner)"
    case .accessDenied(let client, let service, let status, let operation):
      status == .restricted
        ? "\(client) may not \(operation): a policy restricts its \(service) access — only that policy can lift it"
        : "\(client) may not \(operation): its \(service) access is \(status) — request access, or change it in settings"
    case .missingUsageDescription(let client, let usage):
      "\(client) has no \(usage) usage description, so the request was denied — register one and ask again after a reset"
    case .levelNotAvailable(let service, let level):
      "\(level) access does not exist for \(service) — ask for full access"
    case .restrictedByPolicy(let client, let service):
      "a policy restricts \(service) for \(client) — only lifting the policy changes it"
    case .notRestricted(let client, let service): "\(service) is not restricted for \(client) — nothing to lift"
    case .restrictedByOtherPolicies(let client, let service, let policy, let others):
      "policy \(policy) does not restrict \(service) for \(client); "
        + others.map { "policy \($0)" }.joined(separator: ", ")
        + " does — only the policy that restricted lifts its restriction"
    case .sessionTerminated(let client, let position):
      "the session of \(client) ended: its access changed at position \(position) — open a new session"
    case .ownerOnly(let what): "only the store's owner may \(what) — not an app"
    case .notIdentified(let client):
      "the caller is not \(client): its process does not satisfy the app's code requirement (client register --executable)"
    case .tokenNotFound(let client, let token):
      "\(client) has no token \(token) — list its tokens with kalends client token list \(client)"
    case .tokenRevoked(let client, let token):
      "the token \(token) of \(client) was revoked — the person creates a new one (kalends client token create)"
    case .requestUnavailable(let client, let sdk, let api):
      sdk < 6
        ? "\(client) is built for iOS \(sdk), which has no \(api): the person is asked when it first uses the service"
        : sdk < Client.currentSDK
          ? "\(client) is built for iOS \(sdk), which has no \(api) — it asks with requestAccess(to:) "
            + "(kalends access request --legacy)"
          : "\(client) is built for iOS \(sdk), where \(api) is an error — ask with requestFullAccessToEvents or "
            + "requestWriteOnlyAccessToEvents (kalends access request --level full|write-only)"
    case .recordRefused(let reason):
      "nothing was written: \(reason) — see docs/log-format.md, who may make which record"
    case .refusalNotRecorded(let refusal, let reason): "\(refusal) (the refusal could not be recorded: \(reason))"
    case .useNotRecorded(let client, let service, let reason):
      "\(client)'s read of \(service) was not answered: it could not be recorded (\(reason))"
    case .requirementHeld(let client, let requirement, let holder):
      "\(requirement) is registered for \(holder) already: a process matching two apps is neither, so \(client) is "
        + "not registered on it — give \(client) its own executable or Flatpak id, or identify it by a token "
        + "(kalends client token create; docs/server.md)"
    }
  }
}
