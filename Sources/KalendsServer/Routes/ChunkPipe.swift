import Dispatch
import NIOCore
import Synchronization

/// A response produced on a thread of its own and written as the connection takes it: at most
/// `window` chunks wait between the two, so that a large answer costs a few chunks of memory, never
/// the whole answer. The producer stops when the reader goes away, or takes longer than a timeout
/// to take a chunk.
final class ChunkPipe: Sendable {
  /// What the producer sends.
  enum Message: Sendable {
    case chunk(ByteBuffer)
    case failure(any Error)
  }

  /// The messages, in order; the stream ends after the last chunk or a failure.
  let messages: AsyncStream<Message>
  private let continuation: AsyncStream<Message>.Continuation
  private let space: DispatchSemaphore
  private let abandoned = Flag()

  /// Whether the reader went away (or the producer gave up on it).
  private final class Flag: Sendable {
    private let value = Atomic<Bool>(false)
    var isSet: Bool { value.load(ordering: .relaxed) }
    func set() { value.store(true, ordering: .relaxed) }
  }

  init(window: Int = 4) {
    (messages, continuation) = AsyncStream.makeStream(of: Message.self, bufferingPolicy: .unbounded)
    space = DispatchSemaphore(value: window)
    let abandoned = self.abandoned
    let space = self.space
    continuation.onTermination = { _ in
      abandoned.set()
      space.signal()
    }
  }

  /// Sends `chunk` once there is room; `false` when the reader went away or took no chunk within
  /// `timeout` (the producer then stops).
  func send(_ chunk: ByteBuffer, timeout: Duration = .seconds(60)) -> Bool {
    guard !abandoned.isSet else { return false }
    let (seconds, attoseconds) = timeout.components
    let deadline = DispatchTime.now() + .nanoseconds(Int(seconds) * 1_000_000_000 + Int(attoseconds / 1_000_000_000))
    guard space.wait(timeout: deadline) == .success, !abandoned.isSet else {
      abandoned.set()
      continuation.finish()
      return false
    }
    continuation.yield(.chunk(chunk))
    return true
  }

  /// Ends the messages, with `error` as the last one when there is one.
  func finish(_ error: (any Error)? = nil) {
    if let error { continuation.yield(.failure(error)) }
    continuation.finish()
  }

  /// The reader took a chunk: one more may be produced.
  func took() {
    space.signal()
  }
}
