package import Hummingbird

/// A protocol front end mounted on the store server beside its API, such as KalendsDAV: its
/// middleware sees every request once the caller's credentials are read, answers the paths it
/// owns, and passes the others on. It identifies callers, asks the person and checks access
/// through the server (``StoreServer/app(_:using:reading:)``, ``StoreServer/withStore(_:_:)``), so
/// its apps live under the same rules, prompts and records as the API's.
package protocol FrontEnd: Sendable {
  /// The middleware answering this front end's requests to `server`.
  func middleware(serving server: StoreServer) -> any MiddlewareProtocol<Request, Response, ServerContext>
}
