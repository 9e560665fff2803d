import CTLSClient
import NIOCore

/// TLS for a connection to a remote server, on the system's OpenSSL (`CTLSClient`): the first
/// handler of the connection's pipeline, between the socket's bytes and HTTP's.
///
/// The handshake starts when the connection is active; writes wait for it. The server's
/// certificate must chain to the system's roots (OpenSSL's default paths: `SSL_CERT_FILE` and
/// `SSL_CERT_DIR` name others) and name the host — a name, also sent as SNI, or an address. A
/// handshake or record that fails closes the connection with a ``TLSClientError`` that says why.
/// Bounds on time and size are the connection's (``RemoteConnection``).
final class TLSClientHandler: ChannelDuplexHandler {
  typealias InboundIn = ByteBuffer
  typealias InboundOut = ByteBuffer
  typealias OutboundIn = IOData
  typealias OutboundOut = IOData

  private enum State {
    case idle, handshaking, open, closed
  }

  private let session: OpaquePointer
  private var state = State.idle
  /// Plaintext written before the handshake was done, in order.
  private var waiting: [(buffer: ByteBuffer, promise: EventLoopPromise<Void>?)] = []
  private var flushWaiting = false

  /// A session for a connection to `host`, checked against its name or, for an IPv4 or IPv6
  /// address, its address.
  init(host: String) throws(TLSClientError) {
    let isAddress = (try? SocketAddress(ipAddress: host, port: 0)) != nil
    var error = [CChar](repeating: 0, count: 256)
    guard let session = ctls_session_new(host, isAddress ? 1 : 0, &error, error.count) else {
      throw TLSClientError(
        reason: String(decoding: error.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))
    }
    self.session = session
  }

  deinit { ctls_session_free(session) }

  func handlerAdded(context: ChannelHandlerContext) {
    if context.channel.isActive { start(context) }
  }

  func channelActive(context: ChannelHandlerContext) {
    start(context)
    context.fireChannelActive()
  }

  func channelRead(context: ChannelHandlerContext, data: NIOAny) {
    let buffer = unwrapInboundIn(data)
    guard state == .handshaking || state == .open else { return }
    let fed = buffer.withUnsafeReadableBytes { bytes in
      ctls_feed(session, bytes.baseAddress?.assumingMemoryBound(to: UInt8.self), bytes.count)
    }
    guard fed == 1 else { return fail(context) }
    if state == .handshaking { advance(context) }
    if state == .open { decrypt(context) }
  }

  func channelInactive(context: ChannelHandlerContext) {
    state = .closed
    failWaiting(ChannelError.eof)
    context.fireChannelInactive()
  }

  func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
    guard case .byteBuffer(let buffer) = unwrapOutboundIn(data) else {
      promise?.fail(TLSClientError(reason: "a file region cannot be sent over TLS"))
      return
    }
    switch state {
    case .idle, .handshaking: waiting.append((buffer, promise))
    case .open: encrypt(context, buffer, promise)
    case .closed: promise?.fail(ChannelError.ioOnClosedChannel)
    }
  }

  func flush(context: ChannelHandlerContext) {
    if state == .open { context.flush() } else { flushWaiting = true }
  }

  func close(context: ChannelHandlerContext, mode: CloseMode, promise: EventLoopPromise<Void>?) {
    if mode == .all {
      if state == .open {
        ctls_shutdown(session)
        send(context, promise: nil)
        context.flush()
      }
      state = .closed
      failWaiting(ChannelError.ioOnClosedChannel)
    }
    context.close(mode: mode, promise: promise)
  }

  private func start(_ context: ChannelHandlerContext) {
    guard state == .idle else { return }
    state = .handshaking
    advance(context)
  }

  /// Takes the handshake as far as the bytes received allow; once it is done, sends what waited.
  private func advance(_ context: ChannelHandlerContext) {
    switch ctls_handshake(session) {
    case 1:
      state = .open
      send(context, promise: nil)
      let written = waiting
      waiting = []
      for (buffer, promise) in written { encrypt(context, buffer, promise) }
      if flushWaiting || !written.isEmpty { context.flush() }
      flushWaiting = false
    case 0:
      send(context, promise: nil)
      context.flush()
    default:
      fail(context)
    }
  }

  /// Passes on the plaintext of the records received whole.
  private func decrypt(_ context: ChannelHandlerContext) {
    while state == .open {
      var result = 0
      var plaintext = context.channel.allocator.buffer(capacity: 16_384)
      plaintext.writeWithUnsafeMutableBytes(minimumWritableBytes: 16_384) { bytes in
        result = ctls_read(session, bytes.baseAddress?.assumingMemoryBound(to: UInt8.self), bytes.count)
        return max(result, 0)
      }
      if result > 0 {
        context.fireChannelRead(wrapInboundOut(plaintext))
      } else if result == 0 {
        break
      } else if result == -2 {
        // The server's close_notify: the stream ends here.
        state = .closed
        context.close(promise: nil)
      } else {
        return fail(context)
      }
    }
    // What reading made OpenSSL say (an alert, a key update's answer).
    if ctls_pending(session) > 0 {
      send(context, promise: nil)
      context.flush()
    }
  }

  private func encrypt(_ context: ChannelHandlerContext, _ buffer: ByteBuffer, _ promise: EventLoopPromise<Void>?) {
    let result = buffer.withUnsafeReadableBytes { bytes in
      ctls_write(session, bytes.baseAddress?.assumingMemoryBound(to: UInt8.self), bytes.count)
    }
    guard result == 1 else {
      promise?.fail(TLSClientError(reason: String(cString: ctls_error(session))))
      return fail(context)
    }
    send(context, promise: promise)
  }

  /// Writes what OpenSSL has for the network, completing `promise` with that write.
  private func send(_ context: ChannelHandlerContext, promise: EventLoopPromise<Void>?) {
    let count = ctls_pending(session)
    guard count > 0 else {
      promise?.succeed()
      return
    }
    var records = context.channel.allocator.buffer(capacity: count)
    records.writeWithUnsafeMutableBytes(minimumWritableBytes: count) { bytes in
      Int(ctls_take(session, bytes.baseAddress?.assumingMemoryBound(to: UInt8.self), bytes.count))
    }
    context.write(wrapOutboundOut(.byteBuffer(records)), promise: promise)
  }

  /// Ends the connection with what the session said went wrong.
  private func fail(_ context: ChannelHandlerContext) {
    let error = TLSClientError(reason: String(cString: ctls_error(session)))
    state = .closed
    failWaiting(error)
    context.fireErrorCaught(error)
    context.close(promise: nil)
  }

  private func failWaiting(_ error: any Error) {
    let written = waiting
    waiting = []
    for (_, promise) in written { promise?.fail(error) }
  }
}

@available(*, unavailable)
extension TLSClientHandler: Sendable {}

/// Why TLS with a remote server failed: its certificate refused (with OpenSSL's reason), an alert,
/// a protocol error.
struct TLSClientError: Error, CustomStringConvertible {
  let reason: String
  var description: String { "TLS: \(reason)" }
}
