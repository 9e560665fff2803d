import NIOCore
import NIOHTTPTypes

/// Caps the TCP connections one network holds at once (``StoreServer/networkSlots``), before any
/// request identifies the caller: a host that opens connections and sends nothing, or sends slowly,
/// holds at most its share of the listener's slots, whatever the request timeout lets each hold.
/// A connection beyond the share is closed at once. Unix-socket connections are not counted here:
/// only the owner's own processes reach that socket.
final class NetworkSlotsHandler: ChannelInboundHandler, RemovableChannelHandler {
  typealias InboundIn = HTTPRequestPart
  typealias InboundOut = HTTPRequestPart

  private let slots: CallerSlots
  private var slot: CallerSlots.Slot?

  init(slots: CallerSlots) {
    self.slots = slots
  }

  func handlerAdded(context: ChannelHandlerContext) {
    if context.channel.isActive { take(context) }
  }

  func channelActive(context: ChannelHandlerContext) {
    if slot == nil { take(context) }
    context.fireChannelActive()
  }

  func channelInactive(context: ChannelHandlerContext) {
    slot?.free()
    slot = nil
    context.fireChannelInactive()
  }

  func handlerRemoved(context: ChannelHandlerContext) {
    slot?.free()
    slot = nil
  }

  private func take(_ context: ChannelHandlerContext) {
    guard let address = context.channel.remoteAddress, address.protocol != .unix else { return }
    let network = UnidentifiedTally.network(of: StoreServer.describe(address))
    guard let taken = slots.take(for: network) else {
      context.close(promise: nil)
      return
    }
    slot = taken
  }
}
