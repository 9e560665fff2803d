import Kalends
import KalendsFormats

/// Sends what waits in the outbox of one account collection — a calendar (`CalendarOutbox`) or an
/// address book (`AddressBookOutbox`) — to the server, after the collection was synced from it:
/// each object the person or an app changed is `PUT` under `If-Match` its base `ETag`
/// (`If-None-Match: *` when the server does not hold it yet), each removed one `DELETE`d under
/// `If-Match`, and each delivery recorded by the account (a hundred to a transaction: a sync
/// stopped between a `PUT` and its record finds, at the next sync, the server holding what waits,
/// and records it then as delivered, not as a conflict).
///
/// A precondition failed (412) means the server changed the object too: its version is fetched
/// and applied, which keeps it as current, records the conflict, and leaves the local version in
/// history. A server that refuses the change itself (403, or 4xx for its content) is answered the
/// same way: its version stands. A server unreachable or busy stops the sending; what is left
/// waits in the outbox, which is the log's, for the next sync.
struct CollectionSend<Target: OutboxTarget> {
  let remote: DAVRemote
  let target: Target

  /// What sending did.
  struct Result {
    /// Objects the server took (written or removed).
    var sent = 0
    /// Objects whose local change met a server change: the server's version was kept.
    var conflicts: [String] = []
    var requests = 0
  }

  /// Deliveries recorded in one transaction.
  static var recordedTogether: Int { 100 }

  func run() async throws(AccountError) -> Result {
    var result = Result()
    guard let stored = target.collection, let base = RemoteURL(stored.url) else { return result }
    let waiting = try target.waiting()
    var delivered: [(Target.Entry, String?)] = []
    // Taken without an ETag: the server stores its own rendering (RFC 4791 §5.3.4), read back below.
    var untagged: [(name: String, url: RemoteURL)] = []
    do throws(AccountError) {
      for entry in waiting {
        if delivered.count >= Self.recordedTogether { try record(&delivered) }
        let name = Target.name(of: entry)
        guard let url = Self.address(of: name, in: base, suffix: Target.suffix) else { continue }
        let answer: RemoteResponse
        let body = Target.body(of: entry)
        let baseTag = Target.baseEntityTag(of: entry)
        if let body {
          let condition = baseTag.map { ("If-Match", $0) } ?? ("If-None-Match", "*")
          (answer, _) = try await remote.send(
            "PUT", url, depth: nil, body: body, headers: [condition], contentType: Target.contentType,
            forbiddenAnswers: true)
        } else if let baseTag {
          (answer, _) = try await remote.send(
            "DELETE", url, depth: nil, body: nil, headers: [("If-Match", baseTag)], forbiddenAnswers: true)
        } else {
          // Made here and removed again before it went out: the server never held it.
          delivered.append((entry, nil))
          continue
        }
        result.requests += 1
        switch answer.status {
        case 200..<300:
          let tag = body == nil ? nil : answer.header("ETag")
          delivered.append((entry, tag))
          if body != nil && tag == nil { untagged.append((name, url)) }
          result.sent += 1
        case 404 where body == nil:
          delivered.append((entry, nil))  // Removed on the server as well.
          result.sent += 1
        case 412, 403, 404, 409, 413, 415, 400, 422:
          // The server changed the object since (412), or will not take this change: its version
          // stands, the local one stays in history. What was delivered before is recorded first.
          try record(&delivered)
          result.conflicts += try await adoptServerVersion(of: name, at: url, &result).conflicts
        default:
          throw AccountError.notDAV("\(body == nil ? "DELETE" : "PUT") \(url) answered \(answer.status)")
        }
      }
    } catch {
      try? record(&delivered)  // What the server took before the failure is recorded.
      throw error
    }
    try record(&delivered)
    for (name, url) in untagged { try await readBack(name, at: url, &result) }
    return result
  }

  /// Reads back an object the server took without answering its `ETag`, and applies the server's
  /// version as a sync does: else the next change here would be sent as if the server held no such
  /// object (`If-None-Match: *`) and refused as a conflict that is none. Nothing waits for it here
  /// now, so what the server holds — its rendering of this change, or a later one another client
  /// made — is current, and no conflict. A server that does not answer leaves it to the next
  /// listing, as before.
  private func readBack(_ name: String, at url: RemoteURL, _ result: inout Result) async throws(AccountError) {
    guard let (answer, _) = try? await remote.send("GET", url, depth: nil, body: nil, forbiddenAnswers: true) else {
      return
    }
    result.requests += 1
    guard answer.status == 200, let tag = answer.header("ETag") else { return }
    _ = try target.adopt(name: name, entityTag: tag, text: answer.body)
  }

  /// Records `delivered` in one transaction, and empties it.
  private func record(_ delivered: inout [(Target.Entry, String?)]) throws(AccountError) {
    let batch = delivered
    delivered = []
    guard !batch.isEmpty else { return }
    try target.record(batch)
  }

  /// Fetches the server's version of the object `name` at `url` and applies it as a sync does: it
  /// becomes current, and the local change is recorded as a conflict.
  private func adoptServerVersion(
    of name: String, at url: RemoteURL, _ result: inout Result
  ) async throws(AccountError) -> RemoteApply {
    let (answer, _) = try await remote.send("GET", url, depth: nil, body: nil, forbiddenAnswers: true)
    result.requests += 1
    switch answer.status {
    case 200:
      // Without an ETag the server's version is taken as unknown: the next listing names it.
      return try target.adopt(name: name, entityTag: answer.header("ETag") ?? "", text: answer.body)
    case 404, 410:
      return try target.adopt(name: name, entityTag: nil, text: nil)
    default:
      throw .notDAV("GET \(url) answered \(answer.status)")
    }
  }

  /// The address of the object `name` in the collection at `base`: `NAME` and `suffix`, the name
  /// percent-encoded as a path segment (as the store's own DAV names its members).
  static func address(of name: String, in base: RemoteURL, suffix: String) -> RemoteURL? {
    var collection = base.description
    if !collection.hasSuffix("/") { collection += "/" }
    return RemoteURL(collection + PathSegment.percentEncoded(name) + suffix)
  }
}
