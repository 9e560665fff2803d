/// Asks the person whether an app may have access: iOS's permission alert. The store calls it
/// outside any transaction while the decision is open (and once more to upgrade write-only access
/// to full access); an answer is recorded and closes the question.
public protocol ConsentPrompter: Sendable {
  /// The person's answer to `request`; `nil` when none came (the prompt timed out or was
  /// dismissed): the status stays undetermined and the request is recorded as a `promptTimeout`.
  func answer(_ request: ConsentRequest) -> ConsentAnswer?

  /// After a ``ConsentAnswer/limited`` answer: the contacts the person chose for the app. The
  /// default chooses none (the app then sees only the contacts it creates).
  func chosenContacts(_ request: ConsentRequest) -> [ObjectID]

  /// After an ``ConsentAnswer/allow`` answer to a request for full access to calendars: the
  /// calendars the person chose to give, or `nil` for all of them (the default).
  func chosenCalendars(_ request: ConsentRequest) -> [ObjectID]?
}

extension ConsentPrompter {
  public func chosenContacts(_ request: ConsentRequest) -> [ObjectID] { [] }
  public func chosenCalendars(_ request: ConsentRequest) -> [ObjectID]? { nil }
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
  /// Allow access to the contacts the person chooses (``ConsentPrompter/chosenContacts(_:)``)
  /// only: iOS 18's limited access (contacts).
  case limited
}

/// A prompter that always gives the same answer: scripts (`--answer`) and tests.
public struct FixedAnswerPrompter: ConsentPrompter {
  /// The answer it gives.
  public let fixedAnswer: ConsentAnswer

  /// The contacts it chooses after a ``ConsentAnswer/limited`` answer.
  public let contacts: [ObjectID]
  /// The calendars it gives with full access to calendars; `nil`: all.
  public let calendars: [ObjectID]?

  /// A prompter answering `answer`, choosing `contacts` when the answer is
  /// ``ConsentAnswer/limited``, and giving only `calendars` (when not `nil`) when it allows full
  /// access to calendars.
  public init(_ answer: ConsentAnswer, contacts: [ObjectID] = [], calendars: [ObjectID]? = nil) {
    fixedAnswer = answer
    self.contacts = contacts
    self.calendars = calendars
  }

  public func answer(_ request: ConsentRequest) -> ConsentAnswer? { fixedAnswer }

  public func chosenContacts(_ request: ConsentRequest) -> [ObjectID] { contacts }

  public func chosenCalendars(_ request: ConsentRequest) -> [ObjectID]? { calendars }
}

/// A prompter or picker that knows which process gave the person's answer: the store server's
/// prompt desk, where `kalends prompts answer` (or the server's own terminal) speaks for the person.
/// The person's records that the answer causes carry that process's evidence as their caller
/// context. Package-only: evidence comes from the kernel, through the server, never from a caller.
package protocol AnswerWitness: Sendable {
  /// The evidence of the process that gave the last answer; `nil` when none is known.
  func answerer() -> CallerEvidence?
}
