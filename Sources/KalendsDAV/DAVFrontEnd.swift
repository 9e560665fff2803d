package import Hummingbird
package import KalendsServer

/// CalDAV (RFC 4791) on the store server, under `/dav/` and `/.well-known/caldav`: calendar
/// programs as apps, each identified as the API's apps are (its token as the Basic password over
/// TCP, its executable over the Unix socket), asked for, checked and recorded the same way
/// (docs/dav.md).
package struct DAVFrontEnd: FrontEnd {
  package init() {}

  package func middleware(serving server: StoreServer) -> any MiddlewareProtocol<Request, Response, ServerContext> {
    DAVMiddleware(server: server)
  }
}
