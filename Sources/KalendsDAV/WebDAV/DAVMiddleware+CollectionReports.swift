import Foundation
import HTTPTypes
import Hummingbird
import Kalends
import KalendsFormats
import KalendsServer

/// The reports every collection makes the same way, written once over ``DAVCollection``:
/// `sync-collection` (RFC 6578) and the multigets (`calendar-multiget`, RFC 4791 §7.9;
/// `addressbook-multiget`, RFC 6352 §8.7).
extension DAVMiddleware {
  /// `sync-collection` (RFC 6578 §3): the members changed since the token (every one for an
  /// empty token) with the properties asked, a `404` for each removed, and the next token. A
  /// `sync-level` other than `1` or `infinite` is refused (`400`); with `DAV:limit`, at most that
  /// many members, the request-URI then answered `507` (§3.6), and a token that skips nothing. A
  /// token this server did not give, or one from before the history kept, is refused (`403
  /// DAV:valid-sync-token`).
  func syncCollection<Collection: DAVCollection>(
    _ body: XMLElement, _ selection: PropertySelection, in collection: Collection
  ) async throws -> Response {
    let use = collection.use
    let position = try SyncToken.position(body.child(.dav("sync-token"))?.text ?? "", use.positions)
    if let level = body.child(.dav("sync-level"))?.text.trimmingCharacters(in: .whitespaces), level != "1",
      level != "infinite", level != "infinity"
    {
      throw DAVError(.badRequest, nil, "sync-level is 1 or infinite, not \(level)")
    }
    let limit = try Self.limit(body, XMLName.dav)
    let changes = try await server.withStore(use) {
      try Self.mapped { try collection.changes(after: position, limit: limit) }
    }
    var tail = Multistatus()
    for name in changes.removed { tail.add(collection.memberHref(name), status: "404 Not Found") }
    if changes.isTruncated { tail.add(collection.href, status: "507 Insufficient Storage") }
    let end = tail.finished(syncToken: SyncToken.text(changes.position, use.positions))
    return try collection.multistatus(
      changes.members, selection, then: String(end.dropFirst(Multistatus.opening.count)))
  }

  /// A multiget: the members at the request's hrefs with the properties asked, in one snapshot;
  /// `404` for an href naming no member of this collection (another collection's, or nothing).
  func multiget<Collection: DAVCollection>(
    _ body: XMLElement, _ selection: PropertySelection, in collection: Collection
  ) async throws -> Response {
    let (asked, elsewhere) = Self.hrefs(body, memberName: collection.memberName)
    let found = try await server.withStore(collection.use) { try collection.members(named: asked) }
    var tail = Multistatus()
    for (name, member) in zip(asked, found) where member == nil {
      tail.add(collection.memberHref(name), status: "404 Not Found")
    }
    for href in elsewhere { tail.add(href, status: "404 Not Found") }
    return try collection.multistatus(found.compactMap { $0 }, selection, then: tail.responses + "</D:multistatus>\n")
  }

  /// The `DAV:href`s of a multiget `body`, as the names of the members `memberName` finds at them
  /// (in the body's order) and, apart, the hrefs (trimmed) naming none: another collection's, a
  /// path outside the DAV space, or text that is no path.
  static func hrefs(_ body: XMLElement, memberName: (DAVPath) -> String?) -> (names: [String], elsewhere: [String]) {
    var names: [String] = []
    var elsewhere: [String] = []
    for href in body.children(.dav("href")) {
      let text = href.text.trimmingCharacters(in: .whitespacesAndNewlines)
      if let path = DAVPath(URLComponents(string: text)?.path ?? text), let name = memberName(path) {
        names.append(name)
      } else {
        elsewhere.append(text)
      }
    }
    return (names, elsewhere)
  }
}
