import Foundation
import Kalends
import Synchronization

/// The server's count of connections it could not identify, per caller (uid and executable
/// digest; a TCP caller's host) and minute, so that a loop of connections cannot flood the log: the first refusal of a
/// caller in a minute is recorded at once, the rest of that minute are counted here and recorded
/// as one `callerUnidentified` record with their count when the caller is next refused after the
/// minute, or by `flush` when the server stops.
final class UnidentifiedTally: Sendable {
  private struct Key: Hashable {
    let uid: UInt32?
    /// A TCP caller's host (without the port, which changes with every connection).
    let host: String?
    let executable: String?
    let digest: [UInt8]?
    let flatpakApp: String?
  }

  private struct Count {
    var minute: Int64
    var uncounted: Int
    var evidence: CallerEvidence
  }

  private let counts = Mutex<[Key: Count]>([:])

  /// Counts a refusal of `evidence` now; records it at once when it is the first of its caller's
  /// minute, after recording the caller's earlier uncounted refusals.
  func refuse(_ evidence: CallerEvidence, in owner: EventStore, now: Date = Date()) throws {
    let minute = Int64((now.timeIntervalSince1970 / 60).rounded(.down))
    let key = Key(
      uid: evidence.uid, host: evidence.address.map(Self.host), executable: evidence.executable,
      digest: evidence.executableSHA256,
      flatpakApp: evidence.flatpakApp)
    let (recordNow, earlier) = counts.withLock { counts -> (Bool, Count?) in
      if var count = counts[key], count.minute == minute {
        count.uncounted += 1
        count.evidence = evidence
        counts[key] = count
        return (false, nil)
      }
      let earlier = counts[key].flatMap { $0.uncounted > 0 ? $0 : nil }
      counts[key] = Count(minute: minute, uncounted: 0, evidence: evidence)
      return (true, earlier)
    }
    if let earlier {
      try owner.recordUnidentifiedCaller(earlier.evidence, count: earlier.uncounted, minute: earlier.minute)
    }
    if recordNow { try owner.recordUnidentifiedCaller(evidence) }
  }

  /// The host part of `ADDRESS:PORT`.
  private static func host(_ address: String) -> String {
    guard let colon = address.lastIndex(of: ":") else { return address }
    return String(address[..<colon])
  }

  /// Records every uncounted refusal (the server stops).
  func flush(to owner: EventStore) throws {
    let pending = counts.withLock { counts in
      defer { counts.removeAll() }
      return counts.values.filter { $0.uncounted > 0 }
    }
    for count in pending {
      try owner.recordUnidentifiedCaller(count.evidence, count: count.uncounted, minute: count.minute)
    }
  }
}
