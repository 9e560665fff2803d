/// What a date of the birthdays calendar marks (EventKit's birthday calendar shows both).
public enum BirthdayKind: UInt8, Hashable, Sendable, CaseIterable, CustomStringConvertible {
  /// A contact's ``Contact/birthday``.
  case birthday = 1
  /// A contact's ``Contact/anniversary``.
  case anniversary = 2

  public var description: String { self == .birthday ? "birthday" : "anniversary" }

  /// The date of this kind `contact` holds.
  func date(of contact: Contact) -> ContactDate? {
    self == .birthday ? contact.birthday : contact.anniversary
  }
}
