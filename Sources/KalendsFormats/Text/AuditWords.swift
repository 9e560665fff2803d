package import Kalends

/// The audit in people's words: statuses, reasons and each privacy fact as a sentence, for the
/// tables of `kalends audit` and the privacy report. The JSON keeps the codes.
extension AuthorizationStatus {
  /// `full access`, `write-only`, `denied`, …
  package var words: String {
    switch self {
    case .notDetermined: "not asked yet"
    case .restricted: "restricted"
    case .denied: "denied"
    case .fullAccess: "full access"
    case .writeOnly: "write-only"
    case .limited: "limited"
    }
  }
}

extension DecisionReason {
  /// Why a status changed, with who changed it.
  package var words: String {
    switch self {
    case .userPrompt: "the person answered the prompt"
    case .userSettings: "the person changed it in settings"
    case .policy: "a policy"
    case .reset: "the person reset the app's access"
    case .missingUsageDescription: "the app gave no reason to ask (no usage description)"
    case .upgrade: "the person upgraded write-only to full access"
    }
  }
}

extension AccessLevel {
  /// `full access` or `write-only access`.
  package var words: String { self == .writeOnly ? "write-only access" : "full access" }
}

extension AuditEntry {
  /// What happened, as a sentence whose subject is the app: `asked for full access to calendars;
  /// the person was asked: full access`. Calendars and contacts are named by `names`.
  package func sentence(names: AuditNames) -> String {
    let service = self.service?.description ?? "its service"
    let times = (count ?? 1) > 1 ? " \(count ?? 1) times" : ""
    switch kind {
    case .clientRegistered:
      return "was registered as “\(name ?? client)”"
    case .accessRequested:
      let asked = "asked\(times) for \(level?.words ?? "access") to \(service)"
      let how = isImplicit ? " (by using it: the app made no request call)" : ""
      if promptTimedOut == true { return asked + how + "; the person did not answer in time" }
      if prompted == true { return asked + how + "; the person was asked: \(status?.words ?? "?")" }
      return asked + how + "; nobody was asked, it stays \(status?.words ?? "?")"
    case .accessDecided:
      let change = "\(service): \(previousStatus?.words ?? "?") → \(status?.words ?? "?")"
      if reason == .policy, case .policy(let policy) = actor { return change + ", by policy “\(policy)”" }
      return change + (reason.map { ", because \($0.words)" } ?? "")
    case .accessAttemptRefused:
      return "was refused\(times): \(operation ?? "a call") (\(Self.held(service, status)))"
    case .ownerActionRefused:
      return "was refused\(times) what only the person may do: \(operation ?? "an owner's action")"
    case .clientTokenCreated:
      return "was given the token \(tokenID ?? "?")" + (name.map { " (“\($0)”)" } ?? "")
    case .clientTokenRevoked:
      return "lost its token \(tokenID ?? "?")"
    case .accessScopeChanged:
      var parts: [String] = []
      if !objects.isEmpty { parts.append("given " + objects.map(names.object).joined(separator: ", ")) }
      if !removedObjects.isEmpty {
        parts.append("no longer " + removedObjects.map(names.object).joined(separator: ", "))
      }
      return "\(service) chosen by the person: " + (parts.isEmpty ? "none" : parts.joined(separator: "; "))
    case .contactPicked:
      return "was handed \(objects.map(names.object).joined(separator: ", ")) by the person with the contact picker"
    default:
      return kind.name
    }
  }

  /// The service a refused call was for, with the status the app held when the refusal was for
  /// lack of access; the service alone when the app held access and something else refused the
  /// call (a read-only calendar).
  static func held(_ service: String, _ status: AuthorizationStatus?) -> String {
    status.map { "\(service) \($0.words)" } ?? service
  }

  /// How the app was known: `identified` (the server's evidence), `declared` (an app's record
  /// written in its own process), or empty for the person's, a policy's and the system's records.
  package var caller: String {
    if identification != nil { return "identified" }
    if case .client = actor { return "declared" }
    return ""
  }
}

extension AccessUse {
  /// How the app was known at the interval's last identified read: `identified` by the store
  /// server, or `declared` when no read of it was.
  package var caller: String { identification == nil ? "declared" : "identified" }
}

extension PendingRefusal {
  /// The refusals counted and not yet in the log, as ``AuditEntry/sentence(names:)`` says them.
  package var sentence: String {
    let times = count > 1 ? " \(count) times" : ""
    guard let service else { return "was refused\(times) what only the person may do: \(operation)" }
    return "was refused\(times): \(operation) (\(AuditEntry.held(service.description, status)))"
  }
}
