import Foundation
import HTTPTypes
import Hummingbird
import Kalends
import KalendsFormats
import KalendsServer
import KalendsSync

/// WebDAV-Push (draft-bitfire-webdav-push) on the DAV space: a `POST` of a `push-register` body
/// to a collection the app sees registers a Web Push subscription for it; `DELETE` of the
/// registration's URL (`/dav/push/ID`) ends it. Registrations are the store's
/// (``EventStore/registerPush(collection:subscription:host:expires:)``): facts of the log, bounded
/// per app, ended when the app loses read access.
extension DAVMiddleware {
  /// `P:` — WebDAV-Push's namespace.
  static func push(_ local: String) -> XMLName { XMLName(Namespace.push, local) }

  /// Whether `selection` asks for a WebDAV-Push property.
  static func asksPush(_ selection: PropertySelection) -> Bool {
    ["transports", "topic", "supported-triggers"].contains { selection.asks(push($0)) }
  }

  /// The app's topic of `collection` and the store's VAPID public key.
  func pushState(of collection: ObjectID, _ use: StoreServer.AppUse) async throws -> (topic: String, vapidKey: String) {
    try await server.withStore(use) {
      let session = use.session
      let topic = try session.pushTopic(of: collection, forClient: use.client.id)
      let key = VAPID.key(fromSecret: try session.store.pushSecret())
      return (topic, VAPID.base64URL(key.publicKey))
    }
  }

  /// `POST` of a `push-register` body to the collection at `path`.
  func registerPush(_ request: Request, _ path: DAVPath, _ context: ServerContext) async throws -> Response {
    guard let body = try await Self.body(request), body.name == Self.push("push-register") else {
      throw DAVError(.badRequest, nil, "a POST to a collection here is a WebDAV-Push push-register")
    }
    let app = try await server.app(context)
    let session = app.1
    let collection: ObjectID
    switch path {
    case .calendar(let id): collection = id
    case .addressBook(let book):
      let use = server.use(app, of: .contacts, reading: true, firstUseAsks: true)
      collection = try await container(book, use).id
    default:
      throw DAVError(.methodNotAllowed, nil, "push notices are registered on a calendar or an address book")
    }
    let subscription: PushSubscription
    let host: String
    do {
      (subscription, host) = try Self.subscription(in: body, allowingLoopback: allowsLoopbackPush)
    } catch let refusal as PushRefusal {
      // A push resource the server will not post to is a refused attempt, recorded.
      let service: Service = if case .addressBook = path { .contacts } else { .calendars }
      try await server.withStore { try session.recordPushRefusal(refusal.reason, service: service) }
      throw DAVError(.forbidden, Self.push(refusal.condition), refusal.reason)
    }
    var expires: Timestamp?
    if let text = body.child(Self.push("expires"))?.text.trimmingCharacters(in: .whitespacesAndNewlines) {
      guard let date = HTTPDate.date(text) else {
        throw DAVError(.badRequest, nil, "\(text) is not an HTTP date (IMF-fixdate)")
      }
      expires = Timestamp(rawValue: Int64(date.timeIntervalSince1970 * 1_000_000))
    }
    // What it asks to be told of: content updates when it names no trigger.
    var triggers: PushTriggers = .content
    if let trigger = body.child(Self.push("trigger")) {
      triggers = []
      if trigger.child(Self.push("content-update")) != nil { triggers.insert(.content) }
      if trigger.child(Self.push("property-update")) != nil { triggers.insert(.properties) }
      guard !triggers.isEmpty else {
        throw DAVError(
          .forbidden, Self.push("trigger-not-supported"), "content-update and property-update are pushed here")
      }
    }
    let (asked, asking) = (expires, triggers)
    let registration = try await server.withStore {
      try Self.mapped {
        try session.registerPush(
          collection: collection, subscription: subscription, host: host, expires: asked, triggers: asking)
      }
    }
    let expiry = Date(timeIntervalSince1970: Double(registration.expires.rawValue) / 1_000_000)
    return Response(
      status: .created,
      headers: [
        .location: DAVPath.pushRegistration(registration.id), .expires: HTTPDate.text(expiry), .contentLength: "0",
      ])
  }

  /// `DELETE /dav/push/ID`: the app's own registration ends (`204`); another's, or none, is `404`.
  func unregisterPush(_ id: ObjectID, _ context: ServerContext) async throws -> Response {
    let session = try await server.app(context).1
    let ended = try await server.withStore { try Self.mapped { try session.unregisterPush(id) } }
    guard ended else { throw DAVError(.notFound, nil, "no push registration \(id) is this app's") }
    return Response(status: .noContent)
  }

  /// The registrations a request names in `Push-Dont-Notify` (a list of quoted registration URLs,
  /// absolute or their paths `/dav/push/ID`, or `*`): `nil` when it names none (no header, or
  /// nothing this server made), `.some(nil)` for `*` — every registration of the writing app.
  static func pushDontNotify(_ request: Request) -> Set<ObjectID>?? {
    guard let value = request.headers[HTTPField.Name("Push-Dont-Notify")!] else { return nil }
    if value.trimmingCharacters(in: .whitespaces) == "*" { return .some(nil) }
    var ids: Set<ObjectID> = []
    for part in value.split(separator: ",") {
      let url = part.trimmingCharacters(in: .whitespaces).trimmingCharacters(in: ["\""])
      let path = url.range(of: DAVPath.pushPath).map { String(url[$0.lowerBound...]) } ?? url
      if case .pushRegistration(let id) = DAVPath(path) { ids.insert(id) }
    }
    return ids.isEmpty ? nil : .some(ids)
  }

  /// Why a subscription is not taken: the `P:` precondition and the reason.
  struct PushRefusal: Error {
    let condition: String
    let reason: String
  }

  /// The Web Push subscription of a `push-register` body and its push resource's host, checked:
  /// an absolute `https` address (`http` on loopback when `allowingLoopback`), never to a
  /// loopback (unless allowed), private, link-local or unspecified address, with a P-256 key and a
  /// 16-byte secret, `aes128gcm` if an encoding is named.
  static func subscription(
    in body: XMLElement, allowingLoopback: Bool
  ) throws -> (PushSubscription, host: String) {
    guard let web = body.child(push("subscription"))?.child(push("web-push-subscription")) else {
      throw PushRefusal(condition: "invalid-subscription", reason: "the subscription is not a web-push-subscription")
    }
    func text(_ name: String) -> String? {
      web.child(push(name))?.text.trimmingCharacters(in: .whitespacesAndNewlines)
    }
    if let encoding = text("content-encoding"), encoding != "aes128gcm" {
      throw PushRefusal(condition: "invalid-subscription", reason: "only aes128gcm messages are sent, not \(encoding)")
    }
    guard let key = text("subscription-public-key").flatMap(VAPID.bytes(base64URL:)), key.count == 65, key[0] == 4,
      let auth = text("auth-secret").flatMap(VAPID.bytes(base64URL:)), auth.count == 16
    else {
      throw PushRefusal(
        condition: "invalid-subscription",
        reason: "the subscription needs a P-256 subscription-public-key and a 16-byte auth-secret, base64url")
    }
    guard let resource = text("push-resource"), let url = URL(string: resource), let scheme = url.scheme?.lowercased(),
      let host = url.host, !host.isEmpty, resource.utf8.count <= 2048
    else {
      throw PushRefusal(condition: "invalid-subscription", reason: "the push-resource is not an absolute address")
    }
    let loopbackAllowed = allowingLoopback && PushEndpointCheck.isLoopback(host)
    if PushEndpointCheck.isLocal(host) && !loopbackAllowed {
      throw PushRefusal(
        condition: "push-not-available",
        reason: "pushes are not sent to \(host): a loopback, private or link-local address")
    }
    guard scheme == "https" || (scheme == "http" && loopbackAllowed) else {
      throw PushRefusal(condition: "push-not-available", reason: "pushes are sent over https only, not \(scheme)")
    }
    return (PushSubscription(endpoint: resource, p256dh: key, auth: auth), host)
  }
}
