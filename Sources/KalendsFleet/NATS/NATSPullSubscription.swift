import CNATS

/// A durable JetStream pull consumer: messages fetched in batches and acknowledged one by one, once
/// what they carry is safely kept. Used by one thread at a time; unsubscribed when released (the
/// durable consumer stays on the server and resumes where it was acknowledged).
package final class NATSPullSubscription {
  private let subscription: OpaquePointer

  init(_ subscription: OpaquePointer) { self.subscription = subscription }

  deinit { natsSubscription_Destroy(subscription) }

  /// One fetched message, to be acknowledged with `acknowledge()` once kept.
  package final class Message {
    private let message: OpaquePointer
    /// The subject it was published to.
    package let subject: String
    /// Its sequence in the stream.
    package let sequence: UInt64
    /// What it carries.
    package let data: [UInt8]

    init(_ message: OpaquePointer) {
      self.message = message
      subject = String(cString: natsMsg_GetSubject(message))
      var metadata: UnsafeMutablePointer<jsMsgMetaData>?
      if natsMsg_GetMetaData(&metadata, message) == NATS_OK, let metadata {
        sequence = metadata.pointee.Sequence.Stream
        jsMsgMetaData_Destroy(metadata)
      } else {
        sequence = 0
      }
      data = NATSConnection.data(of: message)
    }

    deinit { natsMsg_Destroy(message) }

    /// Tells the server the message is kept; it is not delivered again.
    package func acknowledge() throws(NATSError) {
      try NATSError.check(natsMsg_Ack(message, nil), "acknowledge message \(sequence)")
    }
  }

  /// Up to `batch` messages, waiting at most `timeout` for the first; none when none came.
  package func fetch(batch: Int, timeout: Duration) throws(NATSError) -> [Message] {
    var list = natsMsgList()
    var error = jsErrCode(0)
    let status = natsSubscription_Fetch(&list, subscription, Int32(batch), timeout.milliseconds, &error)
    if status == NATS_TIMEOUT { return [] }
    try NATSError.check(status, code: error, "fetch messages")
    var messages: [Message] = []
    for index in 0..<Int(list.Count) {
      if let message = list.Msgs[index] {
        messages.append(Message(message))
        list.Msgs[index] = nil
      }
    }
    natsMsgList_Destroy(&list)
    return messages
  }
}
