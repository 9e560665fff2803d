import Foundation
import Kalends
import KalendsFormats
import Synchronization

/// The server's count of connections it could not identify, per caller and minute, so that a loop
/// of connections cannot flood the log: the first refusal of a caller in a minute is recorded at
/// once, the rest of that minute are counted here and recorded as one `callerUnidentified` record
/// with their count (and the last one's evidence) when the caller is next refused after the
/// minute, or by `flush` when the server stops.
///
/// A caller is keyed by what it cannot vary: a Unix-socket caller by its uid alone (its
/// executable's path, its bytes and a Flatpak id are all its own choice), a TCP caller by its
/// network — one IPv4 address, all of loopback as one, an IPv6 /64 — never by its port or by a
/// loopback address it picks among 16 million.
final class UnidentifiedTally: Sendable {
  private struct Key: Hashable {
    let uid: UInt32?
    /// A TCP caller's network (``network(of:)``).
    let network: String?
  }

  private struct Count {
    var minute: Int64
    var uncounted: Int
    var evidence: CallerEvidence
    /// The identities recorded at once this minute (`identity(of:)`).
    var recorded: Set<String>
  }

  /// How many different programs (or tokens) of one caller are recorded at once in a minute, each
  /// with its own evidence, before the rest of the minute is only counted.
  static let distinctPerMinute = 4

  private let counts = Mutex<[Key: Count]>([:])

  /// Counts a refusal of `evidence` now; records it at once when it is the first of its caller's
  /// minute — or the first of another program of the caller's, up to ``distinctPerMinute`` —
  /// after recording the caller's earlier uncounted refusals.
  func refuse(_ evidence: CallerEvidence, in owner: EventStore, now: Date = Date()) throws {
    let minute = Int64((now.timeIntervalSince1970 / 60).rounded(.down))
    let key = Key(uid: evidence.uid, network: evidence.address.map(Self.network))
    let identity = Self.identity(of: evidence)
    let (recordNow, earlier) = counts.withLock { counts -> (Bool, Count?) in
      if var count = counts[key], count.minute == minute {
        if !count.recorded.contains(identity), count.recorded.count < Self.distinctPerMinute {
          count.recorded.insert(identity)
          counts[key] = count
          return (true, nil)
        }
        count.uncounted += 1
        count.evidence = evidence
        counts[key] = count
        return (false, nil)
      }
      let earlier = counts[key].flatMap { $0.uncounted > 0 ? $0 : nil }
      counts[key] = Count(minute: minute, uncounted: 0, evidence: evidence, recorded: [identity])
      return (true, earlier)
    }
    if let earlier {
      try owner.recordUnidentifiedCaller(earlier.evidence, count: earlier.uncounted, minute: earlier.minute)
    }
    if recordNow { try owner.recordUnidentifiedCaller(evidence) }
  }

  /// What tells one program (or token) of a caller from another: its executable's path and digest
  /// and its Flatpak id, or the token it presented.
  private static func identity(of evidence: CallerEvidence) -> String {
    [
      evidence.executable ?? "", evidence.executableSHA256.map(FileDigest.hex) ?? "", evidence.flatpakApp ?? "",
      evidence.tokenID ?? "",
    ].joined(separator: "\u{0}")
  }

  /// The network of `ADDRESS:PORT` (IPv6 in brackets) that one caller can be told apart by: an
  /// IPv4 address, `loopback` for 127.0.0.0/8 and ::1, an IPv6 address's /64.
  static func network(of address: String) -> String {
    var host = Substring(address)
    if let colon = host.lastIndex(of: ":") { host = host[..<colon] }
    if host.hasPrefix("["), host.hasSuffix("]") { host = host.dropFirst().dropLast() }
    if host.hasPrefix("127.") || host == "::1" || host.hasPrefix("::ffff:127.") { return "loopback" }
    guard host.contains(":") else { return String(host) }
    var groups = host.split(separator: ":", omittingEmptySubsequences: false).map(String.init)
    if let gap = groups.firstIndex(of: ""), groups.count < 8 {
      groups.replaceSubrange(gap...gap, with: repeatElement("0", count: 8 - groups.count + 1))
    }
    return groups.prefix(4).map { $0.isEmpty ? "0" : $0 }.joined(separator: ":") + "::/64"
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
