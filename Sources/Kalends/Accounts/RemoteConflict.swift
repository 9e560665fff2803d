/// A local change of an object of an account calendar that met a change of the same object on the
/// server (a ``RecordKind/remoteConflict`` record): the server's version was kept as current, and
/// the local one stays in history at ``localVersion``, where `restore` brings it back.
public struct RemoteConflict: Hashable, Sendable {
  /// The position of the conflict's record.
  public let position: LogPosition
  /// The object's name in the collection.
  public let name: String
  /// The position of the last local change, kept in history.
  public let localVersion: LogPosition
  /// The server's `ETag` that won; `nil` when the server had removed the object.
  public let serverEntityTag: String?
}

/// An object of an account calendar waiting to go out to the server: what the store holds under
/// its name now (nothing: it was removed here), and what the server held when it was changed here.
package struct OutgoingObject: Sendable {
  /// Its name in the collection.
  package let name: String
  /// The server's `ETag` the local change was based on (`If-Match`); `nil` when the server does
  /// not hold it (`If-None-Match: *`).
  package let baseEntityTag: String?
  /// The position of the last local change it carries.
  package let carries: LogPosition
  /// What the store holds under the name; `nil` when it was removed here.
  package let object: CalendarObject?
}
