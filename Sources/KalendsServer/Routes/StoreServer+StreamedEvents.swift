import Foundation
import Hummingbird
import Kalends
import KalendsFormats

extension StoreServer {
  /// The most instances `GET /v1/instances` answers (about 25 MB of JSON): a longer window is
  /// refused, so that the answer, built in memory for speed, stays bounded.
  static let maximumInstances = 100_000

  /// The most events an answer holds to be sent as one buffer rather than streamed.
  static let inlineEvents = 2_000

  /// The bytes gathered before a chunk of a streamed answer is sent.
  static let chunkSize = 64 * 1024

  /// `GET /v1/events`' answer: at most ``inlineEvents`` at once, else streamed: the events are read
  /// from one snapshot on a thread of their own and written as the connection takes them, a few
  /// chunks at a time, so that a window of decades costs the server a few chunks of memory, not
  /// the whole answer. A refusal (no access,
  /// an unknown calendar) comes before the answer starts, as a problem. An app has at most
  /// ``answerSlots`` such answers at once.
  func streamedEvents(_ use: AppUse, _ predicate: EventPredicate, _ zone: ZoneRules) async throws -> Response {
    // Most answers (a week, a month) are small: read in one hop of the store's pool, as one
    // buffer, and answered at once. Only a window holding more than `inlineEvents` is read again,
    // streamed from a snapshot of its own.
    let session = use.session
    let positions = use.positions
    let inline: ByteBuffer? = try await withStore(use) {
      var buffer = ByteBuffer(string: "[")
      var count = 0
      var complete = true
      try session.enumerateEvents(matching: predicate) { event in
        guard count < Self.inlineEvents else {
          complete = false
          return false
        }
        if count > 0 { buffer.writeString(",") }
        buffer.writeString(
          JSONValue.object(positions.sealing(event.viewedFields(in: zone), version: event.version))
            .rendered())
        count += 1
        return true
      }
      guard complete else { return nil }
      buffer.writeString("]\n")
      return buffer
    }
    if let inline {
      return Response(status: .ok, headers: [.contentType: "application/json"], body: ResponseBody(byteBuffer: inline))
    }
    guard let slot = answerSlots.take(for: use.client.id) else {
      throw Problem(
        status: .tooManyRequests, title: "too many answers at once",
        detail: "\(use.client.id) is being sent \(answerSlots.limit) event lists already: wait for one",
        category: .conflict)
    }
    let pipe = ChunkPipe()
    Thread.detachNewThread {
      var chunk = ByteBuffer(string: "[")
      var first = true
      var sent = false
      do {
        try session.enumerateEvents(matching: predicate) { event in
          if !first { chunk.writeString(",") }
          first = false
          chunk.writeString(
            JSONValue.object(positions.sealing(event.viewedFields(in: zone), version: event.version))
              .rendered())
          guard chunk.readableBytes >= Self.chunkSize else { return true }
          defer { chunk = ByteBuffer() }
          sent = true
          return pipe.send(chunk)
        }
        chunk.writeString("]\n")
        if pipe.send(chunk) { pipe.finish() }
      } catch let error as StoreError {
        pipe.finish(sent ? CancellationError() : Problem(error))
      } catch {
        pipe.finish(error)
      }
    }
    var messages = pipe.messages.makeAsyncIterator()
    // The first chunk, or the refusal, decides the status.
    guard let opening = await messages.next() else {
      slot.free()
      throw Problem(status: .serviceUnavailable, title: "storage failure", detail: "no answer", category: .storage)
    }
    if case .failure(let error) = opening {
      slot.free()
      throw error
    }
    let iterator = IteratorBox(messages)
    return Response(
      status: .ok, headers: [.contentType: "application/json"],
      body: ResponseBody { writer in
        defer { slot.free() }
        var next: ChunkPipe.Message? = opening
        while let message = next {
          switch message {
          case .chunk(let buffer):
            try await writer.write(buffer)
            pipe.took()
          case .failure(let error):
            // Mid-answer the status is sent: the connection is cut, and the app sees a truncated
            // array rather than a complete wrong one.
            throw error
          }
          next = await iterator.next()
        }
        try await writer.finish(nil)
      })
  }
}

/// Hands an async iterator to the response's body closure, which runs once.
private final class IteratorBox: @unchecked Sendable {
  private var iterator: AsyncStream<ChunkPipe.Message>.AsyncIterator

  init(_ iterator: AsyncStream<ChunkPipe.Message>.AsyncIterator) {
    self.iterator = iterator
  }

  func next() async -> ChunkPipe.Message? { await iterator.next() }
}
