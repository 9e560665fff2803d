import Foundation
package import Kalends

/// Publishes a store's records to its organisation's stream: the records after those the stream
/// holds of it, in bundles that end at multiples of `RecordBundle/alignment` (or at the head),
/// each published with its message id and on the condition that the subject's last message is the
/// one this publisher last saw — so that a second publisher of the same store (a cloned store) is
/// refused rather than interleaved, and a bundle sent again after a crash is kept once.
///
/// A mirror that found positions missing (the stream lost them) asks, on `kal.ORG.STORE.resend`,
/// for the records from a position; the next push answers the latest request it has not answered —
/// every record from there to what was published, again, before the new ones — and marks each
/// bundle with the request it answered last (the header `Kal-Answered`), so that the state lives in
/// the stream: a push cut short answers again.
package struct FleetPublisher {
  package let store: Store
  package let subjects: FleetSubjects
  package let nats: NATSConnection
  /// The stream's copies on the cluster (`1` for one server).
  package var replicas = 1

  package init(store: Store, subjects: FleetSubjects, nats: NATSConnection, replicas: Int = 1) {
    self.store = store
    self.subjects = subjects
    self.nats = nats
    self.replicas = replicas
  }

  /// What a push did.
  package struct Report: Sendable, Hashable {
    /// The position the stream held of the store before.
    package var publishedBefore: LogPosition
    /// The position it holds now: the head read at the start, when every bundle was taken.
    package var published: LogPosition
    /// The bundles published.
    package var bundles: Int
    /// The records sent again to answer a mirror's request.
    package var resent: Int = 0
    /// The tree size of the checkpoint published after the records, if one was.
    package var checkpoint: UInt64?
  }

  /// The header naming the stream sequence of the last request to send records again that the
  /// publisher answered.
  package static let answeredHeader = "Kal-Answered"

  /// Why a push stopped.
  package enum Failure: Error, Sendable, CustomStringConvertible {
    /// The subject's last message is not the one this publisher published: another publisher of
    /// the same store id — a cloned store — published meanwhile.
    case anotherPublisher(String)
    /// The stream holds a bundle of this store that does not continue its log where expected.
    case unexpectedBundle(String)
    /// The subject's last message is not the one the push read as last: a replica behind its
    /// leader answered the read (the push reads again), or another publisher published meanwhile.
    case moved(String)
    /// NATS failed.
    case nats(NATSError)
    /// The store failed.
    case store(StoreError)
    /// The organisation's stream is not one to publish into (``FleetStream``), or is missing and
    /// this store's user may not create it.
    case unexpectedStream(String)

    package var description: String {
      switch self {
      case .anotherPublisher(let detail), .unexpectedBundle(let detail), .moved(let detail),
        .unexpectedStream(let detail):
        detail
      case .nats(let error): "\(error)"
      case .store(let error): "\(error)"
      }
    }
  }

  /// Publishes the records `first`…`end` as one bundle (its message id followed by `idSuffix`),
  /// marked as having answered the request of sequence `answered` (`0`: none), on the condition that
  /// the subject's last message is the one of sequence `lastSequence` (`nil`: none).
  private func send(
    _ first: LogPosition, through end: LogPosition, idSuffix: String = "", answered: UInt64, after lastSequence: UInt64?
  ) throws(Failure) -> (bundle: RecordBundle, ack: NATSConnection.PublishAck) {
    let subject = subjects.records(of: store.id)
    let records: [[UInt8]]
    do { records = try store.recordBytes(from: first, through: end) } catch { throw .store(error) }
    let bundle = RecordBundle(store: store.id, first: first, records: records)
    do {
      let ack = try nats.publish(
        bundle.bytes, to: subject, messageID: bundle.messageID + idSuffix,
        headers: answered == 0 ? [:] : [Self.answeredHeader: String(answered)], expectedLast: .some(lastSequence))
      return (bundle, ack)
    } catch  where error.code == NATSError.wrongLastSequence {
      throw .moved(
        "\(subject) moved on since this publisher's last bundle: another publisher of store \(store.id) (a "
          + "cloned store?) published meanwhile; nothing more is published")
    } catch {
      throw .nats(error)
    }
  }

  /// Publishes the store's latest kept checkpoint that the published records cover, when it is
  /// newer than the last one published (or, as `evidence`, whatever was published), with a
  /// consistency proof to `published`; returns its size.
  private func publishCheckpoint(through published: LogPosition, evidence: Bool = false) throws(Failure) -> UInt64? {
    let subject = subjects.checkpoints(of: store.id)
    do {
      guard let size = try store.checkpointSizes().last(where: { $0 <= published.rawValue && $0 > 0 }),
        let note = try store.checkpoint(size: size)
      else { return nil }
      if !evidence, let last = try nats.lastMessage(stream: subjects.stream, subject: subject),
        let previous = try? CheckpointMessage(bytes: last.data),
        let previousSize = try? Checkpoint(parsing: previous.note.text).treeHead.size, previousSize >= size
      {
        return nil
      }
      let proof = try store.consistencyProof(from: size, to: published.rawValue)
      let message = CheckpointMessage(note: note, publishedSize: published.rawValue, proof: proof.path)
      _ = try nats.publish(
        message.bytes, to: subject,
        messageID: "\(store.id):ckpt:\(size):\(published.rawValue)"
          + (evidence ? ":" + ((try? Checkpoint(parsing: note.text))?.treeHead.root.hex ?? "") : ""))
      return size
    } catch let error as StoreError {
      throw .store(error)
    } catch let error as NATSError {
      throw .nats(error)
    } catch {
      throw .unexpectedBundle("\(error)")
    }
  }

  /// Publishes what the stream does not hold yet, up to the head read now, then the latest
  /// checkpoint those records cover.
  ///
  /// When the stream holds another log under this store's id (`Failure.anotherPublisher`: a
  /// clone, or this store rewritten), nothing is published of its records; its latest signed
  /// checkpoint is, with a proof to its head, so that a mirror holding the other log finds two
  /// signed trees that disagree, and flags the store with both as evidence.
  ///
  /// A failed push is kept in the store's metadata with its reason (``Store/recordPushFailure(_:reason:at:)``),
  /// for `kalends status` to say until a push succeeds.
  package func push() throws(Failure) -> Report {
    do {
      return try pushOnce()
    } catch {
      try? store.recordPushFailure(subjects.organisation, reason: error.description, at: .now())
      throw error
    }
  }

  private func pushOnce() throws(Failure) -> Report {
    do {
      return try publishReadingAgain()
    } catch {
      if case .nats(let failure) = error, failure.isTimeout, let leaderless = leaderlessStream() {
        throw .nats(NATSError(failure, saying: leaderless))
      }
      guard case .anotherPublisher(let detail) = error else { throw error }
      let evidence = try? store.head().position
      let size = evidence.flatMap { try? publishCheckpoint(through: $0, evidence: true) } ?? nil
      throw .anotherPublisher(
        detail + (size.map { "; its checkpoint of \($0) records is published for the mirrors to compare" } ?? ""))
    }
  }

  /// What to tell the operator when the stream has had no leader for longer than an election (its
  /// state unreadable now and again after two seconds, while the server answers): a cluster elects
  /// one within seconds, so longer means a majority of its nodes is down or unreachable, or the
  /// server is stuck (docs/fleet.md, "Which nats-server"). `nil` when it has one, or the server
  /// itself does not answer.
  private func leaderlessStream() -> String? {
    func led() -> Bool {
      do {
        _ = try nats.streamLeader(subjects.stream, timeout: .milliseconds(500))
        return true
      } catch {
        return false
      }
    }
    guard !led() else { return nil }
    Thread.sleep(forTimeInterval: 2)
    guard !led() else { return nil }
    return "the stream \(subjects.stream) has had no leader for longer than an election: start its nodes "
      + "that are down, or restart a stuck one (nats-server 2.9 was seen stuck after repeated leader losses; "
      + "docs/fleet.md)"
  }

  /// `publishNew`, again when the subject moved on: the last messages are read from any replica,
  /// one behind its leader shows an earlier last bundle, and the publish that follows is refused.
  /// Read again before taking the subject's moving on as another publisher's doing: up to
  /// ``movedReads`` reads in all, over about four and a half seconds — a node started again after a leader's
  /// loss answers reads while it catches up, for seconds on a loaded machine, and each read goes to
  /// a replica at random, so that a few quick reads may all meet it.
  private func publishReadingAgain() throws(Failure) -> Report {
    var attempt = 0
    while true {
      do {
        return try publishNew()
      } catch {
        guard case .moved(let detail) = error else { throw error }
        attempt += 1
        guard attempt < Self.movedReads else { throw .anotherPublisher(detail) }
        Thread.sleep(forTimeInterval: min(0.1 * Double(1 << (attempt - 1)), 1))
      }
    }
  }

  /// How many times a push reads the subject's last message before a subject that moved on is
  /// another publisher's doing (``publishReadingAgain()``).
  static let movedReads = 8

  private func publishNew() throws(Failure) -> Report {
    let subject = subjects.records(of: store.id)
    // Whoever may create the stream chooses its configuration: it is read and checked before
    // anything is published into it (``FleetStream``), on every push, as a stream can be removed
    // and made again between two. Created when missing and this store's user may (a deployment
    // without per-store users); the organisation's mirror creates it otherwise. Asked on every push,
    // so a push after a node's loss waits for the cluster's JetStream API leader as well as the
    // stream's.
    do {
      if try !FleetStream.check(nats, subjects) {
        do {
          try nats.addStream(
            name: subjects.stream, subjects: subjects.streamSubjects, replicas: replicas,
            duplicateWindow: .seconds(120))
        } catch {
          throw Failure.unexpectedStream(
            "the stream \(subjects.stream) does not exist and this store's NATS user may not create it "
              + "(\(error)) — the organisation's mirror creates it: kalends fleet mirror --org "
              + "\(subjects.organisation) --once, then push again")
        }
        guard try FleetStream.check(nats, subjects) else {
          throw Failure.unexpectedStream("the stream \(subjects.stream) is missing just after it was created")
        }
      }
    } catch let failure as Failure {
      throw failure
    } catch let refusal as FleetStream.Refusal {
      throw .unexpectedStream(refusal.description)
    } catch let error as NATSError {
      throw .nats(error)
    } catch {
      throw .nats(NATSError(answer: "\(error)"))
    }
    var published = LogPosition.none
    var lastSequence: UInt64?
    var answered: UInt64 = 0
    var request: (sequence: UInt64, from: LogPosition)?
    do {
      if let asked = try nats.lastMessage(stream: subjects.stream, subject: subjects.resends(of: store.id)),
        let from = UInt64(String(decoding: asked.data, as: UTF8.self)), from >= 1
      {
        request = (asked.sequence, LogPosition(from))
      }
      if let last = try nats.lastMessage(stream: subjects.stream, subject: subject, headers: [Self.answeredHeader]) {
        answered = last.headers[Self.answeredHeader].flatMap { UInt64($0) } ?? 0
        let bundle: RecordBundle
        do { bundle = try RecordBundle(bytes: last.data) } catch {
          throw Failure.unexpectedBundle("the last message of \(subject) is no bundle: \(error)")
        }
        guard bundle.store == store.id else {
          throw Failure.unexpectedBundle("the last message of \(subject) is a bundle of \(bundle.store)")
        }
        // What the stream holds last must be this store's own records: else another store publishes
        // under its id (a clone that went its own way), and going on would interleave two logs.
        // Compared by the hashes they carry, which erasing a record's content since leaves as they are.
        let own: [[UInt8]]
        do { own = try store.recordBytes(from: bundle.first, through: bundle.last) } catch {
          throw Failure.store(error)
        }
        guard own.map(RecordForms.storedHash) == bundle.records.map(RecordForms.storedHash) else {
          throw Failure.anotherPublisher(
            "the stream's bundle \(bundle.messageID) holds other records than this store at those positions: "
              + "another store publishes under id \(store.id) (a cloned store?); nothing is published")
        }
        (published, lastSequence) = (bundle.last, last.sequence)
      }
    } catch let error as Failure {
      throw error
    } catch let error as NATSError {
      throw .nats(error)
    } catch {
      throw .unexpectedBundle("\(error)")
    }
    let head: LogPosition
    do { head = try store.head().position } catch { throw .store(error) }
    var report = Report(publishedBefore: published, published: published, bundles: 0)
    // A request not answered yet: everything from its position to what was published, again.
    if let request, request.sequence > answered, request.from <= published {
      var first = request.from
      while first <= published {
        let end = RecordBundle.end(from: first, head: published)
        // Only the last bundle of the answer says it is answered: a push cut short answers again.
        let (bundle, ack) = try send(
          first, through: end, idSuffix: ":r\(request.sequence)",
          answered: end == published ? request.sequence : answered, after: lastSequence)
        // A bundle of this answer kept already (a push cut short) is skipped, not a clone.
        if !ack.duplicate { lastSequence = ack.sequence }
        report.resent += bundle.records.count
        report.bundles += 1
        first = end.next
      }
      answered = request.sequence
    }
    while published < head {
      let first = published.next
      let (bundle, ack) = try send(
        first, through: RecordBundle.end(from: first, head: head), answered: answered, after: lastSequence)
      if ack.duplicate {
        throw .moved(
          "the stream already held bundle \(bundle.messageID) although the subject's last message was earlier: "
            + "another publisher of store \(store.id) published it")
      }
      lastSequence = ack.sequence
      published = bundle.last
      report.published = published
      report.bundles += 1
    }
    report.checkpoint = try publishCheckpoint(through: published)
    // Where the stream stands, kept in the store for `kalends status` (a store opened read only
    // keeps nothing).
    do {
      let previous = try store.publications().first { $0.organisation == subjects.organisation }
      try store.recordPublication(
        Publication(
          organisation: subjects.organisation, position: published, time: .now(),
          checkpoint: report.checkpoint ?? previous?.checkpoint))
    } catch .readOnly {
    } catch {
      throw .store(error)
    }
    return report
  }
}
