/// One card of a vCard file as read: a contact, or a group with the `UID`s of its members, and
/// the line its `BEGIN:VCARD` is on.
enum VCardCard: Sendable {
  case contact(Contact, line: Int)
  case group(ContactGroup, members: [String], line: Int)

  var line: Int {
    switch self {
    case .contact(_, let line), .group(_, _, let line): line
    }
  }
}
