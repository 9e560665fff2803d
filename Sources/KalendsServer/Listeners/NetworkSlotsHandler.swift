import NIOCore
import NIOHTTPTypes

/// Caps the TCP connections one network holds at once (``StoreServer/networkSlots``) until a
/// request identifies the caller: a host that opens connections and sends nothing, or sends slowly,
/// holds at most its share of the listener's slots, whatever the request timeout lets each hold.
/// A connection beyond the share is closed at once. Loopback connections are counted by the local
/// user that owns their other end (``LoopbackPeer``): one user of the machine cannot crowd out
/// another. Once a request identifies an app (``CallerIdentified``), the connection gives its slot
/// back and counts among the app's own (``StoreServer/connectionSlots``): an app's keep-alive
/// connections never hold what unidentified callers share. Unix-socket connections are not counted
/// here: only the owner's own processes reach that socket.
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

  func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
    if event is CallerIdentified {
      slot?.free()
      slot = nil
      return
    }
    context.fireUserInboundEventTriggered(event)
  }

  private func take(_ context: ChannelHandlerContext) {
    guard let address = context.channel.remoteAddress, address.protocol != .unix else { return }
    var network = UnidentifiedTally.network(of: StoreServer.describe(address))
    // Reading the kernel's socket table is a read of memory it lists, not of a disk.
    if network == "loopback", let peer = address.port, let local = context.channel.localAddress?.port,
      let uid = LoopbackPeer.uid(peerPort: peer, localPort: local)
    {
      network = "loopback uid \(uid)"
    }
    guard let taken = slots.take(for: network) else {
      context.close(promise: nil)
      return
    }
    slot = taken
  }
}

/// Told to a TCP connection's pipeline once a request on it identified an app: its slot among the
/// unidentified (``NetworkSlotsHandler``) goes back.
struct CallerIdentified: Sendable {}
