/// The collection on an account's server that a calendar of a ``CalendarAccount`` mirrors, and how
/// far the store has synced it: calendar state field 13.
///
/// Only the person's session sees it: an app's copy of the calendar carries `nil`, so an app never
/// learns an account's addresses.
public struct RemoteCollection: Hashable, Sendable {
  /// The collection's absolute address.
  public var url: String
  /// The `sync-token` (RFC 6578) of the last sync that completed, for the next `sync-collection`.
  public package(set) var syncToken: String?
  /// The collection's `getctag` at the last sync that completed, for a server without
  /// `sync-collection`.
  public package(set) var ctag: String?
  /// Objects of the collection the store could not take at the last sync (malformed, over a
  /// bound), each with why; the rest of the collection synced.
  public package(set) var quarantined: [QuarantinedObject] = []
  /// Whether the calendar was made here and its collection is still to be made on the server
  /// (`MKCALENDAR`) by the next sync.
  public package(set) var isNew = false

  /// A collection at `url`, not yet synced; `isNew` when it is still to be made on the server.
  public init(url: String, isNew: Bool = false) {
    self.url = url
    self.isNew = isNew
  }

  /// An object the store could not take, by its name in the collection.
  public struct QuarantinedObject: Hashable, Sendable {
    /// Its name: the last segment of its address.
    public var name: String
    /// Why it was not taken.
    public var reason: String

    /// An object `name`, not taken for `reason`.
    public init(name: String, reason: String) {
      self.name = name
      self.reason = reason
    }
  }

  /// The most quarantined objects a collection's state keeps; a sync counts the rest.
  public static let maximumQuarantined = 100

  /// Appends it to a calendar's state.
  func append(to state: inout Payload) {
    var remote = Payload()
    remote.append(tag: 1, string: url)
    if let syncToken { remote.append(tag: 2, string: syncToken) }
    if let ctag { remote.append(tag: 3, string: ctag) }
    for object in quarantined.prefix(Self.maximumQuarantined) {
      var entry = Payload()
      entry.append(tag: 1, string: object.name)
      entry.append(tag: 2, string: object.reason)
      remote.append(tag: 4, message: entry)
    }
    if isNew { remote.append(tag: 5, bool: true) }
    state.append(tag: 13, message: remote)
  }

  /// The collection in calendar state `remote` (field 13).
  init(_ remote: PayloadReader) throws(StoreError) {
    url = try remote.requiredString(1)
    syncToken = try remote.string(2)
    ctag = try remote.string(3)
    quarantined = try remote.messages(4).map { entry throws(StoreError) in
      QuarantinedObject(name: try entry.requiredString(1), reason: try entry.string(2) ?? "")
    }
    isNew = try remote.bool(5) ?? false
  }
}
