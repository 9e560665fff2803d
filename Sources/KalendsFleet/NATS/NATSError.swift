import CNATS

/// A failure of the NATS C client or of JetStream: the client's status, JetStream's error code when
/// it gave one (`0` otherwise), and the text of the last error the client recorded.
package struct NATSError: Error, Sendable, CustomStringConvertible {
  /// The client's status (`natsStatus`).
  package let status: Int
  /// JetStream's error code (`jsErrCode`), `0` when none.
  package let code: Int
  /// What failed, in the client's words.
  package let text: String

  /// JetStream refused a publish whose expected last sequence of the subject did not hold.
  package static let wrongLastSequence = 10071
  /// JetStream's code for a message that was not found.
  package static let messageNotFound = 10037
  /// JetStream's code for a stream name in use by a stream of another configuration.
  package static let streamNameInUse = 10058
  /// JetStream's code for a stream whose subjects another stream holds.
  package static let subjectsOverlap = 10065
  /// JetStream's code for its API answering while no leader serves it (a cluster electing one).
  package static let temporarilyUnavailable = 10008

  init(_ status: natsStatus, code: jsErrCode = jsErrCode(0), _ operation: String) {
    self.status = Int(status.rawValue)
    self.code = Int(code.rawValue)
    var last = NATS_OK
    let detail = nats_GetLastError(&last).map { String(cString: $0) } ?? ""
    let statusText = natsStatus_GetText(status).map { String(cString: $0) } ?? "status \(status.rawValue)"
    self.text = "\(operation): \(detail.isEmpty ? statusText : detail)"
  }

  /// `error` with `detail` said after it, its status and code kept.
  init(_ error: NATSError, saying detail: String) {
    status = error.status
    code = error.code
    text = error.text + " — " + detail
  }

  /// A failure the client did not report: an answer that is not what JetStream gives.
  init(answer text: String) {
    status = Int(NATS_ERR.rawValue)
    code = 0
    self.text = text
  }

  package var description: String { code == 0 ? text : "\(text) (JetStream error \(code))" }

  /// Whether no answer came in time (also what a request the user may not make ends in).
  package var isTimeout: Bool { status == Int(NATS_TIMEOUT.rawValue) }

  /// Throws unless `status` is `NATS_OK`.
  static func check(_ status: natsStatus, code: jsErrCode = jsErrCode(0), _ operation: String) throws(NATSError) {
    guard status == NATS_OK else { throw NATSError(status, code: code, operation) }
  }
}
