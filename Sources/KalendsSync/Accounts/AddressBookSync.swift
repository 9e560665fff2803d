import Kalends
import KalendsFormats

/// One sync of one address book of an account into the contacts container mirroring it: what
/// changed on the server since the last completed sync — by `sync-collection` (RFC 6578) from the
/// stored token, else by the collection's `getctag` and a listing of its members — fetched by
/// `addressbook-multiget` (RFC 6352 §8.7) in batches (halved when an answer is too large) and applied through
/// `ContactStore.applyRemoteCards`, each batch one transaction, the new token committed with
/// the last. A card the store has as the server does is written again never: a sync killed
/// anywhere resumes from the last token and writes nothing twice.
struct AddressBookSync {
  let remote: DAVRemote
  let store: ContactStore
  let container: ContactContainer
  /// Whether the server said it has `sync-token`s for this collection.
  let supportsSyncCollection: Bool
  /// The collection's `getctag` as the listing of the home gave it just now, if it did.
  let currentCtag: String?
  /// Told after each batch.
  let progress: (AccountSync.Progress) -> Void

  /// The most cards one `addressbook-multiget` asks for, and one transaction applies.
  static let batchSize = 500

  func run() async throws(AccountError) -> AccountSync.AddressBookResult {
    guard let stored = container.remote, let base = RemoteURL(stored.url) else {
      throw .notDAV("the address book \(container.id) names no collection")
    }
    var result = AccountSync.AddressBookResult(containerID: container.id, title: container.title)
    guard
      let listing = try await CollectionSync.listing(
        remote, base, stored, supportsSyncCollection: supportsSyncCollection, currentCtag: currentCtag,
        suffix: ".vcf", requests: &result.requests, bytes: &result.bytes)
    else { return result }
    let members = listing.changed.compactMap { member in
      CollectionSync.name(of: member.href, in: base, suffix: ".vcf").map { (href: member.href, name: $0) }
    }
    let listed = Set(members.map(\.name))
    var removals = Set(listing.removed.compactMap { CollectionSync.name(of: $0, in: base, suffix: ".vcf") })
      .subtracting(listed)
    if listing.complete {
      let held = try AccountError.fromStore { () throws(StoreError) in
        try store.remoteCardNames(inContainer: container.id)
      }
      removals.formUnion(held.subtracting(listed))
    }
    let total = members.count + removals.count
    progress(.init(calendar: container.title, objects: 0, total: total, bytes: result.bytes))
    var batches = stride(from: 0, to: members.count, by: Self.batchSize).map {
      Array(members[$0..<min($0 + Self.batchSize, members.count)])
    }
    if batches.isEmpty { batches = [[]] }
    var quarantined: [RemoteCollection.QuarantinedObject] = []
    for (index, batch) in batches.enumerated() {
      var changes: [RemoteCardChange] = []
      if !batch.isEmpty {
        let fetch = try await CollectionSync.multigetSplitting(remote, base, batch.map(\.href), of: .cards)
        result.requests += fetch.requests
        result.bytes += fetch.bytes
        for (href, name) in batch {
          switch fetch.objects[href] {
          case .none, .some(.gone):
            changes.append(.removed(name: name))
          case .some(.failed(let reason)):
            quarantined.append(.init(name: name, reason: reason))
          case .some(.found(let tag, let text)):
            switch Self.card(text) {
            case .success(let card): changes.append(.stored(name: name, entityTag: tag, card: card))
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
        let touched = listed.union(removals)
        done.quarantined =
          stored.quarantined.filter { !touched.contains($0.name) } + quarantined + result.applied.quarantined
        completing = done
      }
      let applied = try AccountError.fromStore { () throws(StoreError) in
        try store.applyRemoteCards(changes, to: container.id, completing: completing)
      }
      result.applied.add(applied)
      progress(.init(calendar: container.title, objects: result.applied.total, total: total, bytes: result.bytes))
    }
    result.quarantined = quarantined + result.applied.quarantined
    return result
  }

  /// The card a server's `text` holds, or why it is not taken.
  static func card(_ text: [UInt8]) -> Result<AddressObject, CollectionSync.Refusal> {
    guard text.count <= CollectionSync.maximumObjectBytes else {
      return .failure(.init(reason: "it has \(text.count) bytes, more than \(CollectionSync.maximumObjectBytes)"))
    }
    do {
      return .success(try AddressObject(vCard: text))
    } catch {
      return .failure(.init(reason: "it is not one vCard: \(error)"))
    }
  }
}
