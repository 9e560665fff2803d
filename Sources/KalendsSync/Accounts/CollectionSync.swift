import Foundation
import Kalends
import KalendsFormats

/// One sync of one collection of an account into the calendar mirroring it: what changed on the
/// server since the last completed sync — by `sync-collection` (RFC 6578) from the stored token,
/// else, for a server without it, by comparing its `getctag` and then every member's `getetag`
/// with what the calendar holds — fetched by `calendar-multiget` in batches and applied through
/// ``EventStore/applyRemote(_:to:completing:)``.
///
/// Every batch is one transaction; the new token is committed with the last one. A sync killed
/// anywhere starts again from the last token, and what it applied already carries its `ETag`, so
/// nothing is lost and nothing is written twice.
struct CollectionSync {
  let remote: DAVRemote
  let store: EventStore
  let calendar: EventCalendar
  /// Whether the server said it has `sync-token`s for this collection.
  let supportsSyncCollection: Bool
  /// The collection's `getctag` as the listing of the home gave it just now, if it did.
  let currentCtag: String?
  /// Told after each batch.
  let progress: (AccountSync.Progress) -> Void

  /// The most objects one `calendar-multiget` asks for, and one transaction applies: a server's cost
  /// of a request is mostly its own (Radicale answers 100 objects in 31 ms, 1,000 in 144 ms), and
  /// a sync killed loses at most one batch's work.
  static let batchSize = 500

  /// What the server says changed.
  struct Listing {
    /// Members new or changed, by href, with their `ETag` when the listing gave one.
    var changed: [(href: String, entityTag: String?)] = []
    /// Members gone, by href.
    var removed: [String] = []
    /// Whether the listing names every member (a first sync, or a listing of `getetag`s): what
    /// the calendar holds and the listing does not name is gone.
    var complete = false
    var syncToken: String?
    var ctag: String?
  }

  func run() async throws(AccountError) -> AccountSync.CollectionResult {
    guard let stored = calendar.remote, let base = RemoteURL(stored.url) else {
      throw .notDAV("the calendar \(calendar.id) names no collection")
    }
    var result = AccountSync.CollectionResult(calendarID: calendar.id, title: calendar.title)
    guard
      let listing = try await Self.listing(
        remote, base, stored, supportsSyncCollection: supportsSyncCollection, currentCtag: currentCtag,
        requests: &result.requests, bytes: &result.bytes)
    else { return result }
    // What the calendar holds: every object's ETag for a complete listing (what it does not name is
    // gone), else only those of the objects it names — an incremental sync reads no more of the
    // store than it changes.
    let members = listing.changed.compactMap { member in
      Self.name(of: member.href, in: base).map { (href: member.href, name: $0, entityTag: member.entityTag) }
    }
    let listed = Set(members.map(\.name))
    let tags = try AccountError.fromStore { () throws(StoreError) in
      listing.complete
        ? try store.remoteEntityTags(inCalendar: calendar.id)
        : try store.remoteEntityTags(named: members.map(\.name), inCalendar: calendar.id)
    }
    var removals = Set(listing.removed.compactMap { Self.name(of: $0, in: base) }).subtracting(listed)
    if listing.complete { removals.formUnion(Set(tags.keys).subtracting(listed)) }
    // What the calendar holds with the ETag the listing gives is not fetched again.
    let wanted = members.filter { $0.entityTag == nil || tags[$0.name] != $0.entityTag }.map {
      (href: $0.href, name: $0.name)
    }
    var quarantined: [RemoteCollection.QuarantinedObject] = []
    let total = wanted.count + removals.count
    progress(.init(calendar: calendar.title, objects: 0, total: total, bytes: result.bytes))
    var batches = stride(from: 0, to: wanted.count, by: Self.batchSize).map {
      Array(wanted[$0..<min($0 + Self.batchSize, wanted.count)])
    }
    if batches.isEmpty { batches = [[]] }
    // The next batch is fetched while this one is applied: the server's time and the store's overlap.
    let remote = self.remote
    func fetching(_ batch: [(href: String, name: String)]) -> Task<Fetch, any Error> {
      Task { try await Self.multigetSplitting(remote, base, batch.map(\.href)) }
    }
    var next = batches[0].isEmpty ? nil : fetching(batches[0])
    defer { next?.cancel() }
    for (index, batch) in batches.enumerated() {
      var changes: [RemoteChange] = []
      if let fetch = next {
        let done: Fetch
        do {
          done = try await fetch.value
        } catch let error as AccountError {
          throw error
        } catch {
          throw .notDAV("\(error)")
        }
        next = index + 1 < batches.count ? fetching(batches[index + 1]) : nil
        result.requests += done.requests
        result.bytes += done.bytes
        let fetched = done.objects
        for (href, name) in batch {
          switch fetched[href] {
          case .none, .some(.gone):
            changes.append(.removed(name: name))
          case .some(.failed(let reason)):
            quarantined.append(.init(name: name, reason: reason))
          case .some(.found(let tag, let text)):
            switch Self.object(text, name: name, in: calendar.id) {
            case .success(let object): changes.append(.stored(name: name, entityTag: tag, object: object))
            case .failure(let refusal): quarantined.append(.init(name: name, reason: refusal.reason))
            }
          }
        }
      }
      let last = index == batches.count - 1
      if last { changes += removals.sorted().map { .removed(name: $0) } }
      var completing: RemoteCollection?
      if last {
        var done = stored
        done.syncToken = listing.syncToken
        done.ctag = listing.ctag
        // What an earlier sync quarantined stays named until the server changes or removes it.
        let touched = listed.union(removals)
        // And what earlier batches' transactions quarantined (a UID held under another name) is
        // kept with what this one does.
        done.quarantined =
          stored.quarantined.filter { !touched.contains($0.name) } + quarantined + result.applied.quarantined
        completing = done
      }
      let applied = try AccountError.fromStore { () throws(StoreError) in
        try store.applyRemote(changes, to: calendar.id, completing: completing)
      }
      result.applied.add(applied)
      progress(.init(calendar: calendar.title, objects: result.applied.total, total: total, bytes: result.bytes))
    }
    result.quarantined = quarantined + result.applied.quarantined
    return result
  }

  // MARK: Listings

  /// What changed in the collection at `base` since the sync that left it at `stored`, or `nil`
  /// when nothing did: no request when the home's listing gave the same ctag as that sync's (an
  /// idle sync is the one listing of the home), else `sync-collection` from the stored token or,
  /// for a server without it, a listing of every member's `getetag` unless the ctag is the same;
  /// `nil` too for a `sync-collection` with nothing new. Members are named without `suffix`.
  static func listing(
    _ remote: DAVRemote, _ base: RemoteURL, _ stored: RemoteCollection, supportsSyncCollection: Bool,
    currentCtag: String?, suffix: String = ".ics", requests: inout Int, bytes: inout Int
  ) async throws(AccountError) -> Listing? {
    if let currentCtag, currentCtag == stored.ctag, stored.syncToken != nil || !supportsSyncCollection {
      return nil
    }
    var listing: Listing
    if supportsSyncCollection {
      listing = try await syncCollection(
        remote, base, from: stored.syncToken, requests: &requests, bytes: &bytes, suffix: suffix)
      // The ctag seen before the listing: a change made since gives another at the next sync.
      listing.ctag = currentCtag
    } else if let etags = try await etagListing(
      remote, base, unlessCtag: stored.ctag, known: currentCtag, requests: &requests, suffix: suffix)
    {
      listing = etags
    } else {
      return nil  // The same ctag: nothing changed.
    }
    if listing.syncToken == stored.syncToken && listing.ctag == stored.ctag && listing.changed.isEmpty
      && listing.removed.isEmpty && !listing.complete
    {
      return nil  // `sync-collection` with nothing new: one request, nothing written.
    }
    return listing
  }

  /// `sync-collection` from `token` (none: from the start, every member); a token the server no
  /// longer knows starts again from the start. A truncated answer (`507` on the collection) is
  /// continued from the token it gives.
  static func syncCollection(
    _ remote: DAVRemote, _ base: RemoteURL, from token: String?, requests: inout Int, bytes: inout Int,
    suffix: String = ".ics"
  ) async throws(AccountError) -> Listing {
    var listing = Listing(complete: token == nil)
    var current = token
    for _ in 0..<1000 {
      let body = """
        <?xml version="1.0" encoding="utf-8"?><D:sync-collection xmlns:D="DAV:">\
        <D:sync-token>\(XMLText.escaped(current ?? ""))</D:sync-token><D:sync-level>1</D:sync-level>\
        <D:prop><D:getetag/></D:prop></D:sync-collection>
        """
      // A 403 is how RFC 6578 refuses a token (`valid-sync-token`): taken here, not as a refused user.
      let (answer, _) = try await remote.send("REPORT", base, depth: nil, body: body, forbiddenAnswers: true)
      requests += 1
      bytes += answer.body.count
      if current == nil, answer.status == 403 { throw .refused(status: 403, url: base.description) }
      if current != nil, (400..<500).contains(answer.status) {
        // RFC 6578 §3.2: the token is no longer valid (403 `valid-sync-token`, or 409/412 on
        // some servers); start again and take the full listing.
        current = nil
        listing = Listing(complete: true)
        continue
      }
      guard answer.status == 207 else { throw .notDAV("REPORT sync-collection \(base) answered \(answer.status)") }
      let (responses, syncToken) = try DAVRemote.multistatus(answer.body)
      var truncated = false
      for response in responses {
        if Self.name(of: response.href, in: base, suffix: suffix) == nil {
          truncated = truncated || response.status == 507
          continue
        }
        if response.status == 404 {
          listing.removed.append(response.href)
        } else {
          listing.changed.append((response.href, response.properties[.dav("getetag")]?.text.trimmed))
        }
      }
      listing.syncToken = syncToken
      guard truncated, let syncToken else { return listing }
      current = syncToken
    }
    throw .notDAV("sync-collection \(base) did not end after 1000 continuations")
  }

  /// Every member's `getetag` (PROPFIND, depth 1), for a server without `sync-collection`; `nil`
  /// when the collection's `getctag` — `known` from the home's listing, else asked for — is `ctag`
  /// (nothing changed).
  static func etagListing(
    _ remote: DAVRemote, _ base: RemoteURL, unlessCtag ctag: String?, known: String?, requests: inout Int,
    suffix: String = ".ics"
  ) async throws(AccountError) -> Listing? {
    var current = known
    if current == nil {
      let ctagName = XMLName(Namespace.calendarServer, "getctag")
      let (top, _) = try await remote.propfind(base, depth: 0, [ctagName])
      requests += 1
      current = top.first?.properties[ctagName]?.text.trimmed
    }
    if let current, current == ctag { return nil }
    let (members, _) = try await remote.propfind(base, depth: 1, [.dav("getetag"), .dav("resourcetype")])
    requests += 1
    var listing = Listing(complete: true)
    listing.ctag = current
    for member in members where Self.name(of: member.href, in: base, suffix: suffix) != nil {
      listing.changed.append((member.href, member.properties[.dav("getetag")]?.text.trimmed))
    }
    return listing
  }

  // MARK: Objects

  /// What a multiget found at one href.
  enum Fetched: Sendable {
    case found(entityTag: String, text: [UInt8])
    case gone
    case failed(String)
  }

  /// What multigets brought: the objects by href, and the requests and bytes it took.
  struct Fetch: Sendable {
    var objects: [String: Fetched] = [:]
    var requests = 0
    var bytes = 0
  }

  /// What a multiget asks for: a calendar's objects (`calendar-multiget`, RFC 4791 §7.9) or an
  /// address book's cards (`addressbook-multiget`, RFC 6352 §8.7).
  enum Members: Sendable {
    case calendarObjects, cards

    /// The report's element, in the namespace of its data.
    var report: String { self == .calendarObjects ? "calendar-multiget" : "addressbook-multiget" }
    /// The property holding each member's text.
    var data: XMLName { self == .calendarObjects ? .caldav("calendar-data") : .carddav("address-data") }
  }

  /// ``multiget(_:_:_:of:)``, asked again in halves when the answer is larger than a sync reads at
  /// once (objects of up to 1 MiB each).
  static func multigetSplitting(
    _ remote: DAVRemote, _ base: RemoteURL, _ hrefs: [String], of members: Members = .calendarObjects
  ) async throws(AccountError) -> Fetch {
    do {
      return try await multiget(remote, base, hrefs, of: members)
    } catch .remote(.tooLarge) where hrefs.count > 1 {
      let half = hrefs.count / 2
      var first = try await multigetSplitting(remote, base, Array(hrefs[..<half]), of: members)
      let second = try await multigetSplitting(remote, base, Array(hrefs[half...]), of: members)
      first.objects.merge(second.objects) { one, _ in one }
      first.requests += second.requests + 1
      first.bytes += second.bytes
      return first
    }
  }

  /// The multiget of `hrefs` (`members`' report): each one's `ETag` and text.
  private static func multiget(
    _ remote: DAVRemote, _ base: RemoteURL, _ hrefs: [String], of members: Members
  ) async throws(AccountError) -> Fetch {
    let (report, data) = (members.report, members.data)
    let body = """
      <?xml version="1.0" encoding="utf-8"?><C:\(report) xmlns:D="DAV:" \
      xmlns:C="\(data.namespace)"><D:prop><D:getetag/><C:\(data.local)/></D:prop>\
      \(hrefs.map { "<D:href>\(XMLText.escaped($0))</D:href>" }.joined())</C:\(report)>
      """
    let (answer, _) = try await remote.send("REPORT", base, depth: 1, body: body)
    guard answer.status == 207 else { throw .notDAV("REPORT \(report) \(base) answered \(answer.status)") }
    var fetched: [String: Fetched] = [:]
    let wanted = Dictionary(hrefs.map { (Self.path($0), $0) }, uniquingKeysWith: { first, _ in first })
    for response in try DAVRemote.responses(answer.body) {
      guard let href = wanted[Self.path(response.href)] else { continue }
      if response.status == 404 {
        fetched[href] = .gone
      } else if let text = response.properties[data]?.text {
        let tag = response.properties[.dav("getetag")]?.text.trimmed ?? ""
        fetched[href] = .found(entityTag: tag, text: Array(text.utf8))
      } else {
        fetched[href] = .failed(
          "the server gave no \(members == .calendarObjects ? "calendar" : "address") data for it")
      }
    }
    return Fetch(objects: fetched, requests: 1, bytes: answer.body.count)
  }

  /// Why an object is not taken.
  struct Refusal: Error {
    let reason: String
  }

  /// The calendar object a server's `text` at `name` holds, checked as the store checks it.
  static func object(_ text: [UInt8], name: String, in calendarID: ObjectID) -> Result<CheckedRemoteObject, Refusal> {
    guard text.count <= maximumObjectBytes else {
      return .failure(Refusal(reason: "it has \(text.count) bytes, more than \(maximumObjectBytes)"))
    }
    let file: ICalendar
    do {
      file = try ICalendar(parsing: text)
    } catch {
      return .failure(Refusal(reason: "it is not iCalendar: \(error)"))
    }
    let uid = file.events.first?.externalID ?? file.reminders.first?.externalID
    guard let uid else { return .failure(Refusal(reason: "it holds no event and no to-do")) }
    let object = CalendarObject(uid: uid, name: name, events: file.events, reminders: file.reminders)
    do {
      return .success(try EventStore.checkRemote(object, in: calendarID))
    } catch {
      return .failure(Refusal(reason: error.description))
    }
  }

  /// The most bytes of one object a sync takes: 1 MiB, as an upload to the store's own CalDAV.
  static let maximumObjectBytes = 1 << 20

  /// The name of the member `href` of the collection at `base` — its last segment, decoded,
  /// without `suffix` (`.ics`; an address book's `.vcf`) — or `nil` when `href` is not directly
  /// in the collection (the collection itself, or elsewhere).
  static func name(of href: String, in base: RemoteURL, suffix: String = ".ics") -> String? {
    let path = Self.path(href)
    var collection = base.target
    if !collection.hasSuffix("/") { collection += "/" }
    guard path.hasPrefix(collection), path.count > collection.count else { return nil }
    let segment = path.dropFirst(collection.count)
    guard !segment.contains("/"), let decoded = String(segment).removingPercentEncoding, !decoded.isEmpty else {
      return nil
    }
    return decoded.hasSuffix(suffix) && decoded.count > suffix.count ? String(decoded.dropLast(suffix.count)) : decoded
  }

  /// The path of `href`, an absolute path or a full address.
  static func path(_ href: String) -> String {
    if href.hasPrefix("/") { return href }
    return RemoteURL(href)?.target ?? href
  }
}

extension RemoteApply {
  /// The objects it wrote or found as they were.
  var total: Int { created + updated + unchanged + removed }
}
