/// Asks the person whether an app may have access: iOS's permission alert. The store calls it
/// outside any transaction while the decision is open (and once more to upgrade write-only access
/// to full access); an answer is recorded and closes the question.
public protocol ConsentPrompter: Sendable {
  /// The person's answer to `request`; `nil` when none came (the prompt timed out or was
  /// dismissed): the status stays undetermined and the request is recorded as a `promptTimeout`.
  func answer(_ request: ConsentRequest) -> ConsentAnswer?
}

/// What the person is asked.
public struct ConsentRequest: Sendable, Hashable {
  /// The app asking, with its name.
  public let client: Client
  /// For what.
  public let service: Service
  /// At which level.
  public let level: AccessLevel
  /// The app's explanation (its usage description for that level).
  public let usageDescription: String
  /// Whether this is the one prompt that upgrades write-only access to full access.
  public let isUpgrade: Bool
}

/// The person's answer.
public enum ConsentAnswer: String, Sendable, Hashable, CaseIterable {
  /// Allow what was asked.
  case allow
  /// Allow adding events only (calendars).
  case writeOnly = "write-only"
  /// Don't allow.
  case deny
}

/// A prompter that always gives the same answer: scripts (`--answer`) and tests.
public struct FixedAnswerPrompter: ConsentPrompter {
  /// The answer it gives.
  public let fixedAnswer: ConsentAnswer

  /// A prompter answering `answer`.
  public init(_ answer: ConsentAnswer) { fixedAnswer = answer }

  public func answer(_ request: ConsentRequest) -> ConsentAnswer? { fixedAnswer }
}
