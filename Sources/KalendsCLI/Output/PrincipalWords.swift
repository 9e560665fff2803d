import Kalends

/// Who made a record, as the person reads it: a source (`source:ID`) by what it is — the
/// subscription and its calendar's title, the account and its name — every other principal as the
/// log writes it.
struct PrincipalWords {
  /// The words for each source the store's calendars belong to, by its identifier.
  let sources: [String: String]

  /// The sources of the calendars the person sees in `store` (their own session's).
  init(_ store: EventStore) throws {
    var sources: [String: String] = [:]
    guard store.actor == .person else {
      self.sources = [:]
      return
    }
    for calendar in try store.calendars(for: [.events, .reminders]) where calendar.source.kind != .local {
      let what = calendar.source.kind == .subscribed ? "subscription" : String(describing: calendar.source.kind)
      sources[calendar.source.id.description] = "\(what) “\(calendar.title)”"
    }
    for account in try store.accounts() { sources[account.id.description] = "account “\(account.title)”" }
    self.sources = sources
  }

  func text(_ principal: Principal) -> String {
    if case .source(let id) = principal, let words = sources[ObjectID(id)?.description ?? id] { return words }
    return principal.description
  }
}
