/// A birthday or anniversary as the contacts book indexes it: whose, which, and the date.
struct BirthdayEntry: Hashable, Sendable {
  let contact: ObjectID
  let kind: BirthdayKind
  let date: ContactDate
}
