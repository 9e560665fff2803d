import NIOCore
import NIOHTTPTypes

/// Caps the TCP connections one network holds at once until a request identifies the caller: a
/// host that opens connections and sends nothing, or sends slowly, holds at most a small share of
/// the listener's slots (``StoreServer/networkSlots``), each for as long as the request timeout
/// lets it. Beyond that share a connection is let in on a short deadline
/// (``StoreServer/waitingSlots``, ``waitingDeadline``): it is closed unless a request identifies an
/// app on it by then — so a burst of a client's parallel connections, each sending its request at
/// once, is served, while a host holding connections idle keeps only its small share. Beyond both,
/// a connection is closed at once.
///
/// Loopback connections are counted by the local user that owns their other end (``LoopbackPeer``):
/// one user of the machine cannot crowd out another. Once a request identifies an app
/// (``CallerIdentified``), the connection gives its slot back and counts among the app's own
/// (``StoreServer/connectionSlots``): an app's keep-alive connections never hold what unidentified
/// callers share. Unix-socket connections are not counted here: only the owner's own processes
/// reach that socket.
final class NetworkSlotsHandler: ChannelInboundHandler, RemovableChannelHandler {
  typealias InboundIn = HTTPRequestPart
  typealias InboundOut = HTTPRequestPart

  /// How long a connection let in beyond its network's share may wait to be identified.
  static let waitingDeadline = TimeAmount.seconds(1)

  private let slots: CallerSlots
  private let waiting: CallerSlots
  private var slot: CallerSlots.Slot?
  /// The close of a connection let in beyond its network's share, unless it is identified first.
  private var deadline: Scheduled<Void>?

  init(slots: CallerSlots, waiting: CallerSlots) {
    self.slots = slots
    self.waiting = waiting
  }

  func handlerAdded(context: ChannelHandlerContext) {
    if context.channel.isActive { take(context) }
  }

  func channelActive(context: ChannelHandlerContext) {
    if slot == nil { take(context) }
    context.fireChannelActive()
  }

  func channelInactive(context: ChannelHandlerContext) {
    release()
    context.fireChannelInactive()
  }

  func handlerRemoved(context: ChannelHandlerContext) {
    release()
  }

  func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
    if event is CallerIdentified {
      release()
      return
    }
    context.fireUserInboundEventTriggered(event)
  }

  private func release() {
    deadline?.cancel()
    deadline = nil
    slot?.free()
    slot = nil
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
    if let taken = slots.take(for: network) {
      slot = taken
    } else if let taken = waiting.take(for: network) {
      slot = taken
      let loopBound = NIOLoopBound(context, eventLoop: context.eventLoop)
      deadline = context.eventLoop.scheduleTask(in: Self.waitingDeadline) {
        loopBound.value.close(promise: nil)
      }
    } else {
      context.close(promise: nil)
    }
  }
}

/// Told to a TCP connection's pipeline once a request on it identified an app: its slot among the
/// unidentified (``NetworkSlotsHandler``) goes back.
struct CallerIdentified: Sendable {}
