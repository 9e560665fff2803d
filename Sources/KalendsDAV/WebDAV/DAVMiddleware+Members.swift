import HTTPTypes
import Hummingbird
import Kalends
import KalendsFormats
import KalendsServer

/// GET, HEAD, PUT and DELETE of a collection's member, written once over ``DAVCollection``.
extension DAVMiddleware {
  /// GET and HEAD of the member `name`: its body and entity tag; `304` when `If-None-Match` names
  /// its tag, `404` when the app finds no such member.
  func getMember<Collection: DAVCollection>(
    _ name: String, in collection: Collection, _ request: Request
  ) async throws -> Response {
    let use = collection.use
    guard let member = try await server.withStore(use, { try collection.members(named: [name]).first ?? nil }) else {
      throw DAVError(.notFound, nil, "nothing named \(name) is in \(collection.href)")
    }
    let version = collection.version(of: member)
    let tag = EntityTag.tag(version, use.positions)
    if try EntityTag.condition(.ifNoneMatch, of: request)?.matches(version, use.positions) == true {
      return Response(status: .notModified, headers: [.eTag: tag])
    }
    let (contentType, text) = collection.representation(of: member, for: request)
    return Response(
      status: .ok, headers: [.contentType: contentType, .eTag: tag],
      body: ResponseBody(byteBuffer: ByteBuffer(string: request.method == .head ? "" : text)))
  }

  /// PUT of `draft` under `name`: stored in one transaction, `If-Match` and `If-None-Match: *`
  /// checked in it; `201` when new, `204` when replaced — without an entity tag, since what is
  /// stored is the items, not the client's bytes (RFC 4791 §5.3.4, RFC 6352 §6.3.2.3). A `UID`
  /// another member holds is refused (`409`) with the collection's `no-uid-conflict` naming it.
  func putMember<Collection: DAVCollection>(
    _ draft: Collection.Draft, named name: String, in collection: Collection, _ request: Request
  ) async throws -> Response {
    let use = collection.use
    let condition = try Self.condition(of: request, use.positions)
    let created = try await server.withStore(use) {
      try Self.mapped {
        try Self.refusingUIDConflict(collection.uidConflict, href: collection.memberHref) { () throws(StoreError) in
          try collection.store(draft, named: name, condition: condition)
        }
      }
    }
    return Response(status: created ? .created : .noContent)
  }

  /// DELETE of the member `name`, in one transaction; `If-Match` checked in it; `404` when the app
  /// finds no such member.
  func deleteMember<Collection: DAVCollection>(
    _ name: String, in collection: Collection, _ request: Request
  ) async throws -> Response {
    let use = collection.use
    let condition = try Self.condition(of: request, use.positions)
    let exists = try await server.withStore(use) { try collection.members(named: [name]).first ?? nil != nil }
    guard exists else { throw DAVError(.notFound, nil, "nothing named \(name) is in \(collection.href)") }
    try await server.withStore(use) { try Self.mapped { try collection.remove(named: name, condition: condition) } }
    return Response(status: .noContent)
  }

  /// The condition of `If-Match` and `If-None-Match: *` on the member written, as the app of
  /// `positions` is shown versions.
  static func condition(of request: Request, _ positions: AppPositions) throws -> ObjectCondition {
    if let match = try EntityTag.condition(.ifMatch, of: request) {
      return .present(matching: { match.matches($0, positions) })
    }
    if try EntityTag.condition(.ifNoneMatch, of: request) == .any { return .absent }
    return .none
  }
}
