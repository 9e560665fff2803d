import HTTPTypes
import NIOCore
import NIOHTTPTypes

/// Closes a connection whose next request — its head and its whole body — has not arrived within
/// a deadline: from the connection's start, and again from the end of each response. A client that
/// sends its headers or its body a byte at a time (slowloris), which an idle timeout does not
/// catch, so holds a connection slot for at most the deadline. A request that is being answered —
/// a consent prompt's wait, a change stream — is not timed.
///
/// A connection whose request was refused as unauthenticated (`401`), or because its app holds too
/// much already (`429`), is closed once the response is written, which says so (`Connection:
/// close`): such a caller holds no slot, not even while its body drains.
final class RequestTimeoutHandler: ChannelDuplexHandler, RemovableChannelHandler {
  typealias InboundIn = HTTPRequestPart
  typealias InboundOut = HTTPRequestPart
  typealias OutboundIn = HTTPResponsePart
  typealias OutboundOut = HTTPResponsePart

  private let deadline: TimeAmount
  private var timer: Scheduled<Void>?
  /// Whether the response being written refuses an unauthenticated caller.
  private var closesAfterResponse = false

  init(deadline: TimeAmount) {
    self.deadline = deadline
  }

  func handlerAdded(context: ChannelHandlerContext) {
    arm(context)
  }

  func handlerRemoved(context: ChannelHandlerContext) {
    timer?.cancel()
    timer = nil
  }

  func channelRead(context: ChannelHandlerContext, data: NIOAny) {
    if case .end = unwrapInboundIn(data) {
      timer?.cancel()
      timer = nil
    }
    context.fireChannelRead(data)
  }

  func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
    switch unwrapOutboundIn(data) {
    case .head(var response):
      closesAfterResponse = response.status == .unauthorized || response.status == .tooManyRequests
      guard closesAfterResponse else {
        context.write(data, promise: promise)
        return
      }
      // Said in the response (RFC 9112 §9.6), so that a client repeats its request with
      // credentials on a new connection rather than on this one, which is closing.
      response.headerFields[.connection] = "close"
      context.write(wrapOutboundOut(.head(response)), promise: promise)
    case .body:
      context.write(data, promise: promise)
    case .end:
      if closesAfterResponse {
        let written = promise ?? context.eventLoop.makePromise()
        let loopBound = NIOLoopBound(context, eventLoop: context.eventLoop)
        written.futureResult.whenComplete { _ in loopBound.value.close(promise: nil) }
        context.writeAndFlush(data, promise: written)
      } else {
        arm(context)
        context.write(data, promise: promise)
      }
    }
  }

  private func arm(_ context: ChannelHandlerContext) {
    timer?.cancel()
    let loopBound = NIOLoopBound(context, eventLoop: context.eventLoop)
    timer = context.eventLoop.scheduleTask(in: deadline) {
      loopBound.value.close(promise: nil)
    }
  }
}
