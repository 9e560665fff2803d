import NIOCore
import NIOHTTPTypes

/// Closes a connection whose next request head has not fully arrived within a deadline: from the
/// connection's start, and again from the end of each response. A client that sends its headers a
/// byte at a time (slowloris), which an idle timeout does not catch, so holds a connection slot
/// for at most the deadline. A request that is being answered — a consent prompt's wait, a change
/// stream — is not timed.
final class HeaderTimeoutHandler: ChannelDuplexHandler, RemovableChannelHandler {
  typealias InboundIn = HTTPRequestPart
  typealias InboundOut = HTTPRequestPart
  typealias OutboundIn = HTTPResponsePart
  typealias OutboundOut = HTTPResponsePart

  private let deadline: TimeAmount
  private var timer: Scheduled<Void>?

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
    if case .head = unwrapInboundIn(data) {
      timer?.cancel()
      timer = nil
    }
    context.fireChannelRead(data)
  }

  func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
    if case .end = unwrapOutboundIn(data) { arm(context) }
    context.write(data, promise: promise)
  }

  private func arm(_ context: ChannelHandlerContext) {
    timer?.cancel()
    let loopBound = NIOLoopBound(context, eventLoop: context.eventLoop)
    timer = context.eventLoop.scheduleTask(in: deadline) {
      loopBound.value.close(promise: nil)
    }
  }
}
