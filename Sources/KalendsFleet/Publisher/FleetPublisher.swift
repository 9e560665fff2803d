package import Kalends

/// Publishes a store's records to its organisation's stream: the records after those the stream
/// holds of it, in bundles that end at multiples of `RecordBundle/alignment` (or at the head),
/// each published with its message id and on the condition that the subject's last message is the
/// one this publisher last saw — so that a second publisher of the same store (a cloned store) is
/// refused rather than interleaved, and a bundle sent again after a crash is kept once.
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
  }

  /// Why a push stopped.
  package enum Failure: Error, Sendable, CustomStringConvertible {
    /// The subject's last message is not the one this publisher published: another publisher of
    /// the same store id — a cloned store — published meanwhile.
    case anotherPublisher(String)
    /// The stream holds a bundle of this store that does not continue its log where expected.
    case unexpectedBundle(String)
    /// NATS failed.
    case nats(NATSError)
    /// The store failed.
    case store(StoreError)

    package var description: String {
      switch self {
      case .anotherPublisher(let detail), .unexpectedBundle(let detail): detail
      case .nats(let error): "\(error)"
      case .store(let error): "\(error)"
      }
    }
  }

  /// Publishes what the stream does not hold yet, up to the head read now.
  package func push() throws(Failure) -> Report {
    let subject = subjects.records(of: store.id)
    do {
      try nats.addStream(
        name: subjects.stream, subjects: [subjects.allRecords], replicas: replicas, duplicateWindow: .seconds(120))
    } catch { throw .nats(error) }
    var published = LogPosition.none
    var lastSequence: UInt64?
    do {
      if let last = try nats.lastMessage(stream: subjects.stream, subject: subject) {
        let bundle: RecordBundle
        do { bundle = try RecordBundle(bytes: last.data) } catch {
          throw Failure.unexpectedBundle("the last message of \(subject) is no bundle: \(error)")
        }
        guard bundle.store == store.id else {
          throw Failure.unexpectedBundle("the last message of \(subject) is a bundle of \(bundle.store)")
        }
        // What the stream holds last must be this store's own records: else another store publishes
        // under its id (a clone that went its own way), and going on would interleave two logs.
        let own: [[UInt8]]
        do { own = try store.recordBytes(from: bundle.first, through: bundle.last) } catch {
          throw Failure.store(error)
        }
        guard own == bundle.records else {
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
    while published < head {
      let first = published.next
      let end = RecordBundle.end(from: first, head: head)
      let records: [[UInt8]]
      do { records = try store.recordBytes(from: first, through: end) } catch { throw .store(error) }
      let bundle = RecordBundle(store: store.id, first: first, records: records)
      let ack: NATSConnection.PublishAck
      do {
        ack = try nats.publish(bundle.bytes, to: subject, messageID: bundle.messageID, expectedLast: lastSequence)
      } catch  where error.code == NATSError.wrongLastSequence {
        throw .anotherPublisher(
          "\(subject) moved on since this publisher's last bundle: another publisher of store \(store.id) (a "
            + "cloned store?) published meanwhile; nothing more is published")
      } catch {
        throw .nats(error)
      }
      if ack.duplicate {
        throw .anotherPublisher(
          "the stream already held bundle \(bundle.messageID) although the subject's last message was earlier: "
            + "another publisher of store \(store.id) published it")
      }
      lastSequence = ack.sequence
      published = bundle.last
      report.published = published
      report.bundles += 1
    }
    return report
  }
}
