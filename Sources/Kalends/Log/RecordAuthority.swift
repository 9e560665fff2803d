/// Who may make which record: a rule of the log, not of the code that happens to write it.
///
/// Every place that applies a record checks it (the append, a rebuild, `verify`'s walk and replay,
/// `audit verify`), so a record forged into the log by anyone who can write the store's files is
/// refused there, naming its position, instead of taking effect. The table is written out in
/// docs/log-format.md ("Who may make which record").
///
/// This is the part of the rule that needs only the record itself; what depends on the state
/// before it (a policy lifting only its own restriction, the person deciding nothing a policy
/// restricts) is ``PermissionChange``'s.
enum RecordAuthority {
  /// Why `principal` may not make a record of `kind` with `payload`; `nil` when it may. Kinds this
  /// version does not know have no rule: no projection applies them.
  static func violation(kind: RecordKind, principal: Principal, payload: RawSpan) -> String? {
    switch kind {
    case .storeCreated:
      return principal == .system ? nil : "only the system creates a store, not \(principal)"
    case .annotationAdded:
      return nil  // A note changes no state; its author is part of what it says.
    case .retentionSet:
      return principal == .person ? nil : "only the person sets the retention policy, not \(principal)"
    case .contentErased:
      switch principal {
      case .person: return nil
      case .system:
        // The system erases only under the person's retention policy, which the record names.
        let policy = try? PayloadReader(bytes: payload).unsigned(8)
        return policy == nil ? "the system erases only under a retention policy, and this erasure names none" : nil
      case .client, .policy, .source:
        return "only the person (or the system, by a retention policy) erases, not \(principal)"
      }
    case .calendarSaved, .calendarRemoved, .eventSaved, .eventRemoved, .reminderSaved, .reminderRemoved:
      // A source (an account, a subscription) writes what it brings into its calendars.
      switch principal {
      case .person, .client, .source: return nil
      case .system, .policy: return "\(principal) may not change calendars or their items"
      }
    case .contactSaved, .contactRemoved, .groupSaved, .groupRemoved, .addressBookSaved, .addressBookRemoved:
      // An account writes what it brings into its address books.
      switch principal {
      case .person, .client, .source: return nil
      case .system, .policy: return "\(principal) may not change contacts"
      }
    case .sourceSaved, .sourceRemoved:
      return principal == .person ? nil : "only the person adds and removes accounts, not \(principal)"
    case .pushRegistered:
      // An app registers itself, never another.
      guard case .client(let id) = principal else { return "only an app registers for push, not \(principal)" }
      let named = try? PayloadReader(bytes: payload).string(2)
      return named == id ? nil : "\(principal) may not register in the name of \(named ?? "no app")"
    case .pushUnregistered:
      switch principal {
      case .client, .person, .system: return nil
      case .policy, .source: return "\(principal) may not end push registrations"
      }
    case .remoteDelivered, .remoteConflict:
      guard case .source = principal else { return "only an account records what its server holds, not \(principal)" }
      return nil
    case .clientRegistered:
      return principal == .person ? nil : "only the person registers apps, not \(principal)"
    case .clientTokenCreated, .clientTokenRevoked:
      return principal == .person ? nil : "only the person creates and revokes app tokens, not \(principal)"
    case .accessScopeChanged, .contactPicked:
      return principal == .person ? nil : "only the person chooses what an app may see or is handed, not \(principal)"
    case .accessRequested, .accessAttemptRefused, .ownerActionRefused, .dataRead:
      guard case .client(let id) = principal else {
        return "only the app itself asks for access, is refused or reads, not \(principal)"
      }
      guard let subject = subject(of: payload) else { return "the record names no app" }
      return subject == id ? nil : "\(principal) may not ask, be refused or read in the name of \(subject)"
    case .accessDecided:
      return decisionViolation(principal: principal, payload: payload)
    case .callerUnidentified:
      return principal == .system ? nil : "only the store server records an unidentified caller, not \(principal)"
    default:
      return nil
    }
  }

  /// A decision is made by the person (a prompt answered, settings, a reset), by a policy, or by
  /// the system (a request without its usage description) — never by an app, least of all about
  /// itself.
  private static func decisionViolation(principal: Principal, payload: RawSpan) -> String? {
    guard let fields = try? PayloadReader(bytes: payload), let subject = try? fields.string(1) else {
      return "the decision names no app"
    }
    guard let raw = try? fields.unsigned(5), let reason = DecisionReason(rawValue: UInt8(truncatingIfNeeded: raw))
    else { return "the decision has no known reason" }
    if case .client(let id) = principal {
      return id == subject
        ? "\(principal) may not decide its own access" : "\(principal) may not decide the access of \(subject)"
    }
    let allowed: Bool
    switch reason {
    case .userPrompt, .upgrade, .userSettings, .reset: allowed = principal == .person
    case .policy: if case .policy = principal { allowed = true } else { allowed = false }
    case .missingUsageDescription: allowed = principal == .system
    }
    return allowed ? nil : "a \(reason) decision may not be made by \(principal)"
  }

  /// The app a privacy record is about (its field 1).
  private static func subject(of payload: RawSpan) -> String? {
    guard let fields = try? PayloadReader(bytes: payload) else { return nil }
    return try? fields.string(1)
  }
}

/// A record refused by the log's rules of authorship (``RecordAuthority``, ``PermissionChange``):
/// on replay an integrity failure naming the record, on append a refused write.
struct RecordRefusal: Error, Hashable, Sendable {
  /// Which rule the record breaks.
  let reason: String
}
