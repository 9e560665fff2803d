package import Kalends

/// Where an organisation's stores meet on NATS: one stream per organisation (`KAL_ORG`), one subject
/// per store for its records (`kal.ORG.STORE.rec`) and one for a mirror's requests that it send them
/// again (`kal.ORG.STORE.resend`).
package struct FleetSubjects: Hashable, Sendable {
  /// The organisation: letters, digits, `-` and `_` (a NATS subject token and part of a stream name).
  package let organisation: String

  /// Why a name cannot be an organisation's.
  package struct InvalidName: Error, Sendable, CustomStringConvertible {
    package let description: String
  }

  package init(organisation: String) throws(InvalidName) {
    guard !organisation.isEmpty, organisation.count <= 64,
      organisation.unicodeScalars.allSatisfy({
        $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || $0 == "-" || $0 == "_")
      })
    else {
      throw InvalidName(description: "an organisation is 1–64 ASCII letters, digits, - and _, not \(organisation)")
    }
    self.organisation = organisation
  }

  /// The stream of the organisation's records.
  package var stream: String { "KAL_\(organisation)" }

  /// The subjects the stream holds.
  package var allRecords: String { "kal.\(organisation).*.rec" }

  /// The subjects of the mirrors' requests that stores send records again.
  package var allResends: String { "kal.\(organisation).*.resend" }

  /// What the organisation's stream holds: records, checkpoints, requests to send records again.
  package var streamSubjects: [String] { [allRecords, "kal.\(organisation).*.ckpt", allResends] }

  /// What a mirror takes: every subject of the organisation (it ignores the requests it makes).
  package var everything: String { "kal.\(organisation).>" }

  /// The key-value bucket of the mirrors' verdicts (`FleetVerdict`), one key per store and mirror.
  package var verdicts: String { "KAL_\(organisation)_verdicts" }

  /// The subject of `store`'s signed checkpoints.
  package func checkpoints(of store: StoreID) -> String { "kal.\(organisation).\(store).ckpt" }

  /// The subject of the requests that `store` send its records again from a position.
  package func resends(of store: StoreID) -> String { "kal.\(organisation).\(store).resend" }

  /// The prefix of the subjects the answers to `store`'s publisher come on (instead of `_INBOX`):
  /// a store's NATS user may subscribe below it and nowhere else.
  package func inbox(of store: StoreID) -> String { "_INBOX.kal.\(organisation).\(store)" }

  /// The subject of `store`'s records.
  package func records(of store: StoreID) -> String { "kal.\(organisation).\(store).rec" }

  /// The store whose records `subject` carries; `nil` for another subject.
  package func store(of subject: String) -> StoreID? { store(of: subject, kind: "rec") }

  /// The store whose `kind` (`rec`, `ckpt`, `resend`) `subject` is; `nil` for another subject.
  package func store(of subject: String, kind: String) -> StoreID? {
    let parts = subject.split(separator: ".", omittingEmptySubsequences: false)
    guard parts.count == 4, parts[0] == "kal", parts[1] == organisation, parts[3] == kind else { return nil }
    return StoreID(uuid: String(parts[2]))
  }
}

extension StoreID {
  /// The identity written as its canonical UUID text (either case); `nil` for other text.
  package init?(uuid text: String) {
    guard let id = ObjectID(text).flatMap({ StoreID(bytes: $0.bytes) }), id.description == text.lowercased() else {
      return nil
    }
    self = id
  }
}
