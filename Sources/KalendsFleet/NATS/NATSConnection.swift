import CNATS
import Foundation

/// A connection to a NATS server, with its JetStream context, through the NATS C client. Used by
/// one thread at a time (it is not `Sendable`); closed when released.
package final class NATSConnection {
  private let connection: OpaquePointer
  private let jetStream: OpaquePointer
  /// The JetStream context, for the types that wrap its other parts (a key-value bucket).
  var jetStreamContext: OpaquePointer { jetStream }

  /// How long a request (a direct get) waits for its answer.
  private let requestTimeout: Int64

  /// Connects to `url` (`nats://host:port`, or several separated by commas: a cluster), with the
  /// credentials file `credentials` when given; `timeout` bounds the connection and each JetStream
  /// request.
  ///
  /// With `trustedCertificates` (a PEM file of certificate authorities), or a `tls://` URL, the
  /// connection is TLS and the server's certificate must chain to those authorities (or the
  /// system's); with `clientCertificate` (a PEM chain and its key) the connection presents it,
  /// for a server that requires one or names its users by them. `inboxPrefix` replaces `_INBOX` in the subjects the answers to this connection's
  /// requests and publishes come on, so that a user allowed to subscribe only below it reads no
  /// one else's answers.
  package init(
    url: String, credentials: String? = nil, trustedCertificates: String? = nil,
    clientCertificate: (chain: String, key: String)? = nil, inboxPrefix: String? = nil, timeout: Duration = .seconds(5)
  ) throws(NATSError) {
    let milliseconds = timeout.milliseconds
    requestTimeout = milliseconds
    var options: OpaquePointer?
    try NATSError.check(natsOptions_Create(&options), "create the connection's options")
    defer { natsOptions_Destroy(options) }
    // A cluster is a list of servers: the C client takes it as an array, not as one string.
    let servers = url.split(separator: ",").map { String($0).trimmingCharacters(in: .whitespaces) }
    if servers.count > 1 {
      var copies: [UnsafePointer<CChar>?] = servers.map { UnsafePointer(strdup($0)) }
      defer { for copy in copies { free(UnsafeMutableRawPointer(mutating: copy)) } }
      let status = copies.withUnsafeMutableBufferPointer {
        natsOptions_SetServers(options, $0.baseAddress, Int32($0.count))
      }
      try NATSError.check(status, "use \(url)")
    } else {
      try NATSError.check(natsOptions_SetURL(options, url), "use \(url)")
    }
    try NATSError.check(natsOptions_SetTimeout(options, milliseconds), "set the timeout")
    if let credentials {
      try NATSError.check(natsOptions_SetUserCredentialsFromFiles(options, credentials, nil), "read \(credentials)")
    }
    if let trustedCertificates {
      try NATSError.check(natsOptions_SetSecure(options, true), "use TLS")
      try NATSError.check(
        natsOptions_LoadCATrustedCertificates(options, trustedCertificates), "read \(trustedCertificates)")
    }
    if let clientCertificate {
      try NATSError.check(natsOptions_SetSecure(options, true), "use TLS")
      try NATSError.check(
        natsOptions_LoadCertificatesChain(options, clientCertificate.chain, clientCertificate.key),
        "read \(clientCertificate.chain) and \(clientCertificate.key)")
    }
    if let inboxPrefix {
      try NATSError.check(natsOptions_SetCustomInboxPrefix(options, inboxPrefix), "use the inbox \(inboxPrefix)")
    }
    var connection: OpaquePointer?
    try NATSError.check(natsConnection_Connect(&connection, options), "connect to \(url)")
    var jsOptions = jsOptions()
    jsOptions_Init(&jsOptions)
    jsOptions.Wait = milliseconds
    var jetStream: OpaquePointer?
    let status = natsConnection_JetStream(&jetStream, connection, &jsOptions)
    guard status == NATS_OK, let connection, let jetStream else {
      natsConnection_Destroy(connection)
      throw NATSError(status, "open JetStream on \(url)")
    }
    self.connection = connection
    self.jetStream = jetStream
  }

  deinit {
    jsCtx_Destroy(jetStream)
    natsConnection_Destroy(connection)
  }

  /// Creates the file-backed stream `name` over `subjects` with `replicas` copies and a window of
  /// `duplicateWindow` in which a message id is published once; one that exists is left as it is,
  /// whatever its configuration (its operator's choice: another number of copies, say). The stream
  /// allows direct gets (`lastMessage` reads through them).
  ///
  /// Stores pushing to a new organisation at once all ask to create its stream: while one creation
  /// is under way JetStream answers the others that the subjects overlap an existing stream, so that
  /// answer is asked again (up to five times, a quarter of a second apart) until the stream is
  /// there — then the same request succeeds; a stream of another name over the subjects still
  /// fails, as a misconfiguration. While a cluster elects its JetStream leader (a node lost), the
  /// answer is that JetStream is temporarily unavailable, or no answer at all within the request's
  /// timeout (the API's leader lost with the request): asked again for up to 20 seconds, the
  /// longest two elections in a row take (docs/fleet.md), half a second apart.
  package func addStream(name: String, subjects: [String], replicas: Int, duplicateWindow: Duration) throws(NATSError) {
    var overlaps = 0
    let deadline = ContinuousClock.now + .seconds(20)
    while true {
      do {
        return try createStream(name: name, subjects: subjects, replicas: replicas, duplicateWindow: duplicateWindow)
      } catch  where error.code == NATSError.subjectsOverlap && overlaps < 4 {
        overlaps += 1
        Thread.sleep(forTimeInterval: 0.25)
      } catch
        where (error.code == NATSError.temporarilyUnavailable || error.isTimeout) && ContinuousClock.now < deadline
      {
        Thread.sleep(forTimeInterval: 0.5)
      }
    }
  }

  private func createStream(
    name: String, subjects: [String], replicas: Int, duplicateWindow: Duration
  ) throws(NATSError) {
    var config = jsStreamConfig()
    jsStreamConfig_Init(&config)
    let cName = strdup(name)
    var cSubjects: [UnsafePointer<CChar>?] = subjects.map { UnsafePointer(strdup($0)) }
    defer {
      free(cName)
      for subject in cSubjects { free(UnsafeMutableRawPointer(mutating: subject)) }
    }
    var error = jsErrCode(0)
    let status = cSubjects.withUnsafeMutableBufferPointer { subjectsPointer -> natsStatus in
      config.Name = UnsafePointer(cName)
      config.Subjects = subjectsPointer.baseAddress
      config.SubjectsLen = Int32(subjects.count)
      config.Storage = js_FileStorage
      config.Replicas = Int64(replicas)
      config.Duplicates = Int64(duplicateWindow.components.seconds) * 1_000_000_000
      config.AllowDirect = true
      var info: UnsafeMutablePointer<jsStreamInfo>?
      let status = js_AddStream(&info, jetStream, &config, nil, &error)
      jsStreamInfo_Destroy(info)
      return status
    }
    if Int(error.rawValue) == NATSError.streamNameInUse { return }
    try NATSError.check(status, code: error, "create the stream \(name)")
  }

  /// What JetStream answered a publish: the message's sequence in the stream, and whether it held
  /// a message of that id already (then nothing was added).
  package struct PublishAck: Sendable, Hashable {
    package let sequence: UInt64
    package let duplicate: Bool
  }

  /// Publishes `data` to `subject` with the message id `messageID` and the headers `headers`; with
  /// `expectedLast`, on the condition that the subject's last message is the one of that sequence
  /// (`.some(nil)`: that it has none).
  ///
  /// Each attempt waits at most ``publishAttempt`` for its acknowledgement, and an attempt that
  /// gets none (a leader lost with the message) or finds no leader (no responders, JetStream
  /// temporarily unavailable) is made again until the connection's timeout has passed: the stream's
  /// new leader, elected meanwhile, answers the next attempt within about a second of its election,
  /// where one attempt would have waited out the whole timeout on the dead leader. Attempts are
  /// safe to repeat: the message id makes JetStream store the message once (its duplicate window),
  /// and an attempt after one that was stored unacknowledged is answered as a duplicate.
  package func publish(
    _ data: [UInt8], to subject: String, messageID: String, headers: [String: String] = [:],
    expectedLast: UInt64?? = nil
  ) throws(NATSError) -> PublishAck {
    var message: OpaquePointer?
    let created = data.withUnsafeBytes { bytes in
      natsMsg_Create(
        &message, subject, nil, bytes.baseAddress?.assumingMemoryBound(to: CChar.self), Int32(bytes.count))
    }
    try NATSError.check(created, "make the message \(messageID)")
    defer { natsMsg_Destroy(message) }
    for (key, value) in headers {
      try NATSError.check(natsMsgHeader_Set(message, key, value), "set the header \(key)")
    }
    let deadline = ContinuousClock.now + .milliseconds(requestTimeout)
    while true {
      var options = jsPubOptions()
      jsPubOptions_Init(&options)
      options.MaxWait = min(requestTimeout, Self.publishAttempt.milliseconds)
      var ack: UnsafeMutablePointer<jsPubAck>?
      var error = jsErrCode(0)
      let status = messageID.withCString { id -> natsStatus in
        options.MsgId = id
        switch expectedLast {
        case .some(.some(let sequence)): options.ExpectLastSubjectSeq = sequence
        case .some(.none): options.ExpectNoMessage = true
        case .none: break
        }
        return js_PublishMsg(&ack, jetStream, message, &options, &error)
      }
      defer { jsPubAck_Destroy(ack) }
      if status == NATS_OK, let ack {
        return PublishAck(sequence: ack.pointee.Sequence, duplicate: ack.pointee.Duplicate)
      }
      let leaderless =
        status == NATS_TIMEOUT || status == NATS_NO_RESPONDERS
        || Int(error.rawValue) == NATSError.temporarilyUnavailable
      guard leaderless, ContinuousClock.now < deadline else {
        try NATSError.check(status, code: error, "publish \(messageID)")
        throw NATSError(NATS_ERR, "publish \(messageID): no acknowledgement")
      }
      // No leader answered at once: a moment for the election before asking again.
      if status != NATS_TIMEOUT { Thread.sleep(forTimeInterval: 0.1) }
    }
  }

  /// How long one attempt of ``publish(_:to:messageID:headers:expectedLast:)`` waits for its
  /// acknowledgement: a healthy stream answers in milliseconds, and a push resumes about this long
  /// after a new leader is elected.
  package static let publishAttempt: Duration = .seconds(1)

  /// A message read from a stream.
  package struct StoredMessage: Sendable, Hashable {
    package let subject: String
    package let sequence: UInt64
    package let data: [UInt8]
    /// The value of each header asked for that it has.
    package let headers: [String: String]
  }

  /// The last message of `subject` in `stream`, with the values of `headers`; `nil` when it has none.
  ///
  /// Asked as a direct get of the subject (`$JS.API.DIRECT.GET.STREAM.SUBJECT`, of a stream that
  /// allows them), which any replica of the stream answers: a permission to publish on that one
  /// subject suffices, so a store can be allowed to read its own subjects and no other's. A replica
  /// behind its leader may answer with an earlier message (a publish on the condition of the last
  /// sequence tells).
  package func lastMessage(stream: String, subject: String, headers: [String] = []) throws(NATSError)
    -> StoredMessage?
  {
    var reply: OpaquePointer?
    let status = natsConnection_Request(
      &reply, connection, "$JS.API.DIRECT.GET.\(stream).\(subject)", nil, 0, requestTimeout)
    try NATSError.check(status, "read the last message of \(subject)")
    defer { natsMsg_Destroy(reply) }
    func header(_ name: String) -> String? {
      var value: UnsafePointer<CChar>?
      guard natsMsgHeader_Get(reply, name, &value) == NATS_OK, let value else { return nil }
      return String(cString: value)
    }
    if let answer = header("Status") {
      if answer == "404" { return nil }
      throw NATSError(answer: "read the last message of \(subject): \(answer) \(header("Description") ?? "")")
    }
    guard let sequence = header("Nats-Sequence").flatMap(UInt64.init), let stored = header("Nats-Subject") else {
      throw NATSError(answer: "read the last message of \(subject): an answer without its sequence")
    }
    var values: [String: String] = [:]
    for name in headers { values[name] = header(name) }
    return StoredMessage(subject: stored, sequence: sequence, data: Self.data(of: reply), headers: values)
  }

  /// Sends `body` to `subject` and returns the answer's data: a JetStream API request
  /// (`$JS.API.…`) answered in JSON.
  package func request(_ subject: String, _ body: [UInt8] = []) throws(NATSError) -> [UInt8] {
    var reply: OpaquePointer?
    let status = body.withUnsafeBytes { bytes in
      natsConnection_Request(&reply, connection, subject, bytes.baseAddress, Int32(bytes.count), requestTimeout)
    }
    try NATSError.check(status, "ask \(subject)")
    defer { natsMsg_Destroy(reply) }
    return Self.data(of: reply)
  }

  /// The configuration of `stream` as the server states it (the `config` object of
  /// `$JS.API.STREAM.INFO.NAME`), read as JSON so that every field the server keeps is seen, those
  /// this client does not model too (`republish`, `subject_transform`); `nil` when there is no
  /// such stream.
  package func streamConfiguration(_ stream: String) throws(NATSError) -> [String: Any]? {
    let answer = try request("$JS.API.STREAM.INFO.\(stream)")
    guard let object = try? JSONSerialization.jsonObject(with: Data(answer)) as? [String: Any] else {
      throw NATSError(answer: "read \(stream)'s configuration: an answer that is not JSON")
    }
    if let error = object["error"] as? [String: Any] {
      if error["err_code"] as? Int == Self.streamNotFound { return nil }
      throw NATSError(
        answer: "read \(stream)'s configuration: \(error["description"] as? String ?? "refused") "
          + "(JetStream error \(error["err_code"] as? Int ?? 0))")
    }
    guard let config = object["config"] as? [String: Any] else {
      throw NATSError(answer: "read \(stream)'s configuration: an answer without one")
    }
    return config
  }

  /// JetStream's code for a stream that does not exist.
  static let streamNotFound = 10059

  /// The name of the server leading `stream` on a cluster (`nil` on a single server, or while no
  /// server leads it); with `timeout`, asked with that bound instead of the connection's.
  package func streamLeader(_ stream: String, timeout: Duration? = nil) throws(NATSError) -> String? {
    var info: UnsafeMutablePointer<jsStreamInfo>?
    var error = jsErrCode(0)
    var options = jsOptions()
    jsOptions_Init(&options)
    options.Wait = timeout?.milliseconds ?? requestTimeout
    try NATSError.check(
      js_GetStreamInfo(&info, jetStream, stream, &options, &error), code: error, "read \(stream)'s state")
    defer { jsStreamInfo_Destroy(info) }
    guard let leader = info?.pointee.Cluster?.pointee.Leader else { return nil }
    return String(cString: leader)
  }

  /// The copies `stream` is configured with.
  package func streamReplicas(_ stream: String) throws(NATSError) -> Int {
    var info: UnsafeMutablePointer<jsStreamInfo>?
    var error = jsErrCode(0)
    try NATSError.check(js_GetStreamInfo(&info, jetStream, stream, nil, &error), code: error, "read \(stream)'s state")
    defer { jsStreamInfo_Destroy(info) }
    return Int(info?.pointee.Config?.pointee.Replicas ?? 0)
  }

  /// Removes the stream `name` with everything it holds.
  package func deleteStream(_ name: String) throws(NATSError) {
    var error = jsErrCode(0)
    try NATSError.check(js_DeleteStream(jetStream, name, nil, &error), code: error, "delete the stream \(name)")
  }

  /// Removes the message of sequence `sequence` from `stream` (a stream that allows it).
  package func deleteMessage(stream: String, sequence: UInt64) throws(NATSError) {
    var error = jsErrCode(0)
    try NATSError.check(js_DeleteMsg(jetStream, stream, sequence, nil, &error), code: error, "delete \(sequence)")
  }

  /// A durable pull consumer named `durable` of the messages of `subject` (wildcards allowed).
  package func pullSubscription(subject: String, durable: String) throws(NATSError) -> NATSPullSubscription {
    var subscription: OpaquePointer?
    var error = jsErrCode(0)
    let status = js_PullSubscribe(&subscription, jetStream, subject, durable, nil, nil, &error)
    try NATSError.check(status, code: error, "subscribe to \(subject) as \(durable)")
    guard let subscription else { throw NATSError(NATS_ERR, "subscribe to \(subject): no subscription") }
    return NATSPullSubscription(subscription)
  }

  static func data(of message: OpaquePointer?) -> [UInt8] {
    let count = Int(natsMsg_GetDataLength(message))
    guard count > 0, let bytes = natsMsg_GetData(message) else { return [] }
    return bytes.withMemoryRebound(to: UInt8.self, capacity: count) {
      Array(UnsafeBufferPointer(start: $0, count: count))
    }
  }
}

extension Duration {
  /// The whole milliseconds, as the C client takes its timeouts.
  var milliseconds: Int64 { components.seconds * 1000 + components.attoseconds / 1_000_000_000_000_000 }
}
