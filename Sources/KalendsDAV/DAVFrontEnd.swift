package import Hummingbird
package import KalendsServer
package import KalendsSync

/// CalDAV (RFC 4791) on the store server, under `/dav/` and `/.well-known/caldav`: calendar
/// programs as apps, each identified as the API's apps are (its token as the Basic password over
/// TCP, its executable over the Unix socket), asked for, checked and recorded the same way
/// (docs/dav.md).
package struct DAVFrontEnd: FrontEnd {
  /// The most bytes of calendar objects' text the server keeps for its reports
  /// (``ObjectTextCache``); 0 keeps none.
  let objectTextBytes: Int

  /// Whether WebDAV-Push takes push resources on loopback (``DAVMiddleware/allowsLoopbackPush``).
  let allowsLoopbackPush: Bool

  /// The registrations held back during apps' writes, shared with the push delivery.
  let pushHolds: PushHolds?

  /// A front end keeping at most `objectTextBytes` of objects' text (64 MiB unless given), taking
  /// loopback push resources when `allowsLoopbackPush`, holding back the registrations apps name
  /// in `Push-Dont-Notify` in `pushHolds`.
  package init(objectTextBytes: Int = 64 << 20, allowsLoopbackPush: Bool = false, pushHolds: PushHolds? = nil) {
    self.objectTextBytes = objectTextBytes
    self.allowsLoopbackPush = allowsLoopbackPush
    self.pushHolds = pushHolds
  }

  package func middleware(serving server: StoreServer) -> any MiddlewareProtocol<Request, Response, ServerContext> {
    var middleware = DAVMiddleware(server: server, objectTexts: ObjectTextCache(capacity: objectTextBytes))
    middleware.allowsLoopbackPush = allowsLoopbackPush
    middleware.pushHolds = pushHolds
    return middleware
  }
}
