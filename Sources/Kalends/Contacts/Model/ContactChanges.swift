/// What changed among the contacts a session may use after a position of the log: one step of an
/// address book's sync (RFC 6578's `sync-collection`), from
/// `EventStore.contactChanges(after:limit:in:)`.
package struct ContactChanges: Sendable, Hashable {
  /// The position this answer is complete up to: the next step asks for the changes after it.
  public var position: LogPosition
  /// The contacts added or changed, as they are now; for a first sync, every contact.
  public var contacts: [Contact]
  /// The group cards added or changed (or possibly changed: see
  /// `EventStore.contactChanges(after:limit:in:)`), as they are now; for a first sync, every one.
  public var groups: [GroupCard]
  /// The names (a ``Contact/resourceName`` or ``ContactGroup/resourceName``, or else the `UID`) of the
  /// contacts and groups removed.
  public var removed: [String]
  /// Whether the limit cut the answer short: more changes follow ``position``.
  public var isTruncated: Bool

  /// Changes up to `position`.
  public init(
    position: LogPosition, contacts: [Contact], groups: [GroupCard] = [], removed: [String], isTruncated: Bool = false
  ) {
    self.position = position
    self.contacts = contacts
    self.groups = groups
    self.removed = removed
    self.isTruncated = isTruncated
  }
}
