import Foundation
import Kalends
import KalendsServer
import KalendsSync

/// WebDAV-Push delivery while `kalends serve` runs (`PushDelivery`): it follows the store's
/// commits and posts each app's due messages; a message its push service refused, or a
/// registration it said is gone, is a line of the log.
enum PushCompanion {
  static func make(allowsLoopback: Bool, contact: String, holds: PushHolds) -> Companion {
    Companion(interval: .seconds(5), failure: "push notices could not be delivered") { store in
      let delivery = PushDelivery(store: store, allowsLoopback: allowsLoopback, contact: contact, holds: holds) {
        registration, outcome in
        switch outcome {
        case .delivered: return
        case .gone(let status):
          Self.log(
            "push registration \(registration.id) of \(registration.client) ended: its push service answered \(status)")
        case .failed(let reason):
          Self.log("push to \(registration.host) for \(registration.client) failed: \(reason)")
        }
      }
      try await delivery.follow()
      return []
    }
  }

  private static func log(_ line: String) {
    FileHandle.standardError.write(Data((line + "\n").utf8))
  }
}
