/// A change to one client's standing for one service, as an `accessDecided` record states it, and
/// the rules that say which change may follow which state.
///
/// The same rules decide what a command writes and what a replay accepts: a record that breaks
/// them (a person's decision about a service a policy restricts, a policy lifting another policy's
/// restriction, a status that is not what the change gives) is refused wherever it is applied.
enum PermissionChange: Hashable, Sendable {
  /// The person answered the first prompt: full access, write-only (calendars) or denied.
  case prompt(AuthorizationStatus)
  /// The person answered the one prompt from write-only to full access.
  case upgrade(AuthorizationStatus)
  /// The person set the status in settings.
  case settings(AuthorizationStatus)
  /// A policy restricted the service: its own restriction, in force until it lifts it.
  case restrict(policy: String)
  /// A policy lifted its own restriction.
  case lift(policy: String)
  /// The person's decision was cleared (`tccutil reset`); restrictions stay in force.
  case reset
  /// The app asked without the usage description for that level, so the system denied it.
  case missingUsageDescription

  /// Why, as recorded.
  var reason: DecisionReason {
    switch self {
    case .prompt: .userPrompt
    case .upgrade: .upgrade
    case .settings: .userSettings
    case .restrict, .lift: .policy
    case .reset: .reset
    case .missingUsageDescription: .missingUsageDescription
    }
  }

  /// Who makes it.
  var principal: Principal {
    switch self {
    case .prompt, .upgrade, .settings, .reset: .person
    case .restrict(let policy), .lift(let policy): .policy(policy)
    case .missingUsageDescription: .system
    }
  }

  /// The change a recorded decision states: its reason, its author, the status it records and,
  /// for a policy, whether it lifts (field 6; records without it lift when the status is not
  /// `restricted`).
  init(
    reason: DecisionReason, principal: Principal, status: AuthorizationStatus, lifts: Bool? = nil
  ) throws(RecordRefusal) {
    switch reason {
    case .userPrompt: self = .prompt(status)
    case .upgrade: self = .upgrade(status)
    case .userSettings: self = .settings(status)
    case .reset: self = .reset
    case .missingUsageDescription: self = .missingUsageDescription
    case .policy:
      guard case .policy(let name) = principal else {
        throw RecordRefusal(reason: "a policy decision may not be made by \(principal)")
      }
      self = lifts ?? (status != .restricted) ? .lift(policy: name) : .restrict(policy: name)
    }
  }

  /// The state after this change to `state` for `service`, recorded at `position`; throws the
  /// rule it breaks.
  func applied(
    to state: PermissionState, service: Service, at position: LogPosition
  ) throws(RecordRefusal) -> PermissionState {
    var next = state
    next.reason = reason
    next.position = position
    switch self {
    case .prompt(let status), .upgrade(let status), .settings(let status):
      try Self.requireUnrestricted(state, "the person")
      guard
        status == .fullAccess || status == .denied || (status == .writeOnly && service == .calendars)
          || (status == .limited && service == .contacts)
      else {
        throw RecordRefusal(reason: "\(status) is not a decision the person can make for \(service)")
      }
      if case .prompt = self, state.status != .notDetermined {
        throw RecordRefusal(reason: "the person was prompted although access was already \(state.status)")
      }
      if case .upgrade = self {
        guard state.status == .writeOnly, !state.upgradeAsked, status != .denied else {
          throw RecordRefusal(reason: "an upgrade prompt follows only write-only access, once")
        }
        next.upgradeAsked = true
      }
      next.status = status
      next.underlying = status
    case .missingUsageDescription:
      try Self.requireUnrestricted(state, "the system")
      guard state.status == .notDetermined else {
        throw RecordRefusal(reason: "a request without a usage description is denied only while not determined")
      }
      next.status = .denied
      next.underlying = .denied
    case .restrict(let policy):
      guard !state.restrictions.contains(policy) else {
        throw RecordRefusal(reason: "policy \(policy) already restricts \(service)")
      }
      next.restrictions = (state.restrictions + [policy]).sorted()
      next.status = .restricted
    case .lift(let policy):
      guard state.restrictions.contains(policy) else {
        throw RecordRefusal(
          reason: state.restrictions.isEmpty
            ? "policy \(policy) lifts a restriction of \(service) that is not in force"
            : "policy \(policy) may not lift the restriction of \(service) by "
              + state.restrictions.map { "policy \($0)" }.joined(separator: ", "))
      }
      next.restrictions.removeAll { $0 == policy }
      next.status = next.restrictions.isEmpty ? state.underlying : .restricted
    case .reset:
      next.underlying = .notDetermined
      next.upgradeAsked = false
      next.status = state.restrictions.isEmpty ? .notDetermined : .restricted
    }
    return next
  }

  private static func requireUnrestricted(_ state: PermissionState, _ who: String) throws(RecordRefusal) {
    guard state.restrictions.isEmpty else {
      throw RecordRefusal(
        reason: "\(who) may not decide while "
          + state.restrictions.map { "policy \($0)" }.joined(separator: ", ") + " restricts it")
    }
  }
}
