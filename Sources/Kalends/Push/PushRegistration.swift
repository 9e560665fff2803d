/// An app's registration for push notices of one collection it sees (WebDAV-Push: a
/// `push-register` of a calendar, a task list or an address book), as the store keeps it: a fact
/// of the log (``RecordKind/pushRegistered``), ended by the app, the person, its push service
/// saying it is gone, its expiry, or the app's losing read access to the collection's service.
///
/// The subscription itself — the push resource's address and the keys messages are encrypted
/// to — is in the log sealed under a secret of the store's metadata: an auditor sees who
/// registered what until when and at which push service's host, never where the pushes go.
public struct PushRegistration: Hashable, Sendable {
  /// Its identifier: the last segment of its registration URL (`/dav/push/ID`).
  public let id: ObjectID
  /// The app that registered.
  public let client: String
  /// The collection: a calendar's or an address book's identifier.
  public let collection: ObjectID
  /// The service whose data the collection holds (what the app must be able to read).
  public let service: Service
  /// The push service's host (what the person sees of where the pushes go).
  public let host: String
  /// When it ends unless renewed.
  public let expires: Timestamp
  /// When it was made, and its position in the log.
  public let created: Timestamp
  public let version: LogPosition
  /// What changes of the collection it is told of.
  public let triggers: PushTriggers
  /// The token the app registered with over TCP (``ClientToken``); revoking it ends the
  /// registration. `nil` for an app the kernel identified.
  public let tokenID: String?

  /// Whether it has ended by `now`.
  public func hasExpired(at now: Timestamp) -> Bool { expires <= now }
}

/// What changes of its collection a registration is told of (WebDAV-Push's `trigger`).
public struct PushTriggers: OptionSet, Hashable, Sendable {
  public let rawValue: UInt8

  public init(rawValue: UInt8) { self.rawValue = rawValue }

  /// A member added, changed or removed (`content-update`, depth 1): what a client syncs.
  public static let content = PushTriggers(rawValue: 1)
  /// The collection's own properties — its title, color, … (`property-update`, depth 0).
  public static let properties = PushTriggers(rawValue: 2)
}

/// A Web Push subscription as an app gives it (RFC 8030 push resource, RFC 8291 keys): what a
/// registration is sealed around.
package struct PushSubscription: Hashable, Sendable {
  /// The push resource: an absolute `https` (or, where allowed, loopback `http`) address.
  package let endpoint: String
  /// The user agent's P-256 public key, uncompressed (65 bytes).
  package let p256dh: [UInt8]
  /// The authentication secret (16 bytes).
  package let auth: [UInt8]

  package init(endpoint: String, p256dh: [UInt8], auth: [UInt8]) {
    (self.endpoint, self.p256dh, self.auth) = (endpoint, p256dh, auth)
  }

  var encoded: [UInt8] {
    var payload = Payload()
    payload.append(tag: 1, string: endpoint)
    payload.append(tag: 2, bytes: p256dh)
    payload.append(tag: 3, bytes: auth)
    return payload.bytes
  }

  init(_ fields: PayloadReader) throws(StoreError) {
    endpoint = try fields.requiredString(1)
    p256dh = fields.bytes(2) ?? []
    auth = fields.bytes(3) ?? []
  }
}

/// Why a registration ended (``RecordKind/pushUnregistered``'s `reason`).
public enum PushEnding: UInt8, Sendable, CustomStringConvertible {
  /// The app unregistered (`DELETE` of its registration URL).
  case byApp = 1
  /// The person removed it (`kalends push remove`).
  case byPerson = 2
  /// Its push service said the subscription is gone (404 or 410).
  case gone = 3

  public var description: String {
    switch self {
    case .byApp: "by the app"
    case .byPerson: "by the person"
    case .gone: "gone from its push service"
    }
  }
}
