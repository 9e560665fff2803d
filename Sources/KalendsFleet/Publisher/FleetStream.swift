import Foundation

/// The organisation's stream as a push and the mirror require it before they use it: what they
/// publish there must reach the stream and the mirror's consumers only.
///
/// Whoever may create the stream chooses its configuration, and JetStream keeps a stream that
/// exists whatever a later creation asks. A stream that copies its messages elsewhere (`republish`
/// to an inbox its maker reads, `sources` or a `mirror` of another stream), rewrites their subjects
/// (`subject_transform`), holds other subjects than the organisation's, keeps fewer messages than
/// the mirror needs (per-subject limits, interest or work-queue retention) or lets one store's
/// message purge the others (roll-ups), is not the organisation's: a push refuses to publish into it
/// and the mirror to read it, naming what is wrong, so that the operator removes it and the
/// organisation (or the mirror, whose user may) creates it again.
package enum FleetStream {
  /// What is wrong with `configuration` (the server's `config` of the stream) for `subjects`'
  /// organisation; empty when nothing is.
  package static func problems(of configuration: [String: Any], for subjects: FleetSubjects) -> [String] {
    var problems: [String] = []
    let held = Set(configuration["subjects"] as? [String] ?? [])
    if held != Set(subjects.streamSubjects) {
      problems.append(
        "it holds the subjects \(held.sorted().joined(separator: ", ")), not "
          + subjects.streamSubjects.joined(separator: ", "))
    }
    if configuration["republish"] is [String: Any] {
      let destination = (configuration["republish"] as? [String: Any])?["dest"] as? String ?? "?"
      problems.append("it republishes every message to \(destination)")
    }
    if let sources = configuration["sources"] as? [Any], !sources.isEmpty {
      problems.append("it takes messages from \(sources.count) other streams")
    }
    if configuration["mirror"] is [String: Any] { problems.append("it mirrors another stream") }
    if configuration["subject_transform"] is [String: Any] {
      problems.append("it rewrites the subjects of what it stores")
    }
    if configuration["allow_direct"] as? Bool != true {
      problems.append("it does not allow direct gets, by which a store reads its own last message")
    }
    if let perSubject = configuration["max_msgs_per_subject"] as? Int, perSubject > 0 {
      problems.append("it keeps \(perSubject) messages of a subject, dropping the records the mirror verifies")
    }
    if let storage = configuration["storage"] as? String, storage != "file" {
      problems.append("it keeps its messages in \(storage), not on disk")
    }
    if let retention = configuration["retention"] as? String, retention != "limits" {
      problems.append("it keeps messages by \(retention), dropping them before the mirror reads them")
    }
    if configuration["allow_rollup_hdrs"] as? Bool == true {
      problems.append("it lets one message's header purge the others (allow_rollup_hdrs)")
    }
    if configuration["sealed"] as? Bool == true { problems.append("it is sealed") }
    return problems
  }

  /// Reads the stream of `subjects` on `nats` and refuses it when ``problems(of:for:)`` finds any.
  /// Returns whether the stream exists.
  ///
  /// - Throws: ``Refusal`` naming what is wrong; a `NATSError` when it cannot be read (a store's user
  ///   needs `$JS.API.STREAM.INFO.KAL_ORG`, docs/fleet.md).
  @discardableResult
  package static func check(_ nats: NATSConnection, _ subjects: FleetSubjects) throws -> Bool {
    guard let configuration = try configuration(of: subjects.stream, nats) else { return false }
    let problems = problems(of: configuration, for: subjects)
    guard problems.isEmpty else { throw Refusal(stream: subjects.stream, problems: problems) }
    return true
  }

  /// The configuration of `stream`, asked again while a cluster elects its leader (up to five
  /// times, a quarter of a second apart), as the stream's creation is: the answer then is an
  /// error, not the stream. A request that times out is not asked again.
  private static func configuration(of stream: String, _ nats: NATSConnection) throws -> [String: Any]? {
    var attempt = 1
    while true {
      do {
        return try nats.streamConfiguration(stream)
      } catch {
        if error.isTimeout {
          throw NATSError(
            error,
            saying: "the stream's configuration is read before anything is published: a store's user needs "
              + "$JS.API.STREAM.INFO.\(stream) (docs/fleet.md), and the stream a leader")
        }
        guard attempt < 5 else { throw error }
      }
      Thread.sleep(forTimeInterval: 0.25)
      attempt += 1
    }
  }

  /// A stream that is not the organisation's.
  package struct Refusal: Error, Sendable, CustomStringConvertible {
    package let stream: String
    package let problems: [String]

    package var description: String {
      "the stream \(stream) is not one Kalends publishes to: \(problems.joined(separator: "; ")) — "
        + "another may have made it first; nothing was published or read: remove it (nats stream rm \(stream)) "
        + "and let the organisation's mirror create it"
    }
  }
}
