import Hummingbird
import NIOCore

/// A request's context in the store server: Hummingbird's, plus the connection it came on, which
/// is where the kernel's evidence about the caller comes from.
struct ServerContext: RequestContext {
  var coreContext: CoreRequestContextStorage
  /// The connection.
  let channel: any Channel

  init(source: ApplicationRequestContextSource) {
    coreContext = .init(source: source)
    channel = source.channel
  }
}
