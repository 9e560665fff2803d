/// What ``ContactStore/importVCards(_:)`` did: how many contacts and groups it created, changed or
/// found unchanged (a card equal to the stored one writes nothing).
public struct VCardImport: Hashable, Sendable {
  /// Cards that became new contacts.
  public var contactsCreated = 0
  /// Cards that changed the stored contact with their `UID`.
  public var contactsUpdated = 0
  /// Cards equal to the stored contact (nothing written).
  public var contactsUnchanged = 0
  /// Group cards that became new groups.
  public var groupsCreated = 0
  /// Group cards that renamed the stored group with their `UID`.
  public var groupsUpdated = 0
  /// Group cards equal to the stored group.
  public var groupsUnchanged = 0
  /// Members a group names that are neither in the file nor in the store (left out).
  public var unknownMembers = 0

  /// Nothing done yet.
  public init() {}
}
