/// The contact picker (Contacts' `CNContactPickerViewController`): the person picks one contact
/// for an app, which is handed that contact's data once without access to contacts. The store
/// calls it outside any transaction.
public protocol ContactPicker: Sendable {
  /// The contact the person picks for `client` among `contacts` (every contact, as the person
  /// sees them); `nil` when the person cancels.
  func pick(for client: Client, from contacts: [Contact]) -> ObjectID?
}

/// A picker that always picks the same contact: scripts (`kalends contact pick --contact`) and tests.
public struct FixedContactPicker: ContactPicker {
  /// The contact it picks; `nil`: it cancels.
  public let contactID: ObjectID?

  /// A picker picking `contactID` (cancelling with `nil`).
  public init(_ contactID: ObjectID?) { self.contactID = contactID }

  public func pick(for client: Client, from contacts: [Contact]) -> ObjectID? { contactID }
}
