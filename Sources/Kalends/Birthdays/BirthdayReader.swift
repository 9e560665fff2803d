internal import LMDB

/// What one read reads of the birthdays calendar (``EventStore/birthdays(in:_:_:)``): the contacts
/// book and the contacts the session sees there.
struct BirthdayReader {
  let book: ContactsProjection
  let scope: BirthdayScope

  /// The occurrences in `[from, to)`, placed in `zone`, for the contacts of ``scope``; with `uses`,
  /// a read that returns some is noted as a use of contacts (naming the chosen contacts touched).
  func instances(
    from: Int64, to: Int64, zone: ZoneRules, in txn: borrowing ReadTransaction, noting uses: ReadUses?
  ) throws -> [EventInstance] {
    let instances = try BirthdayQuery(from: from, to: to, zone: zone).instances(book, sees: scope.contains, in: txn)
    if let uses, !instances.isEmpty, let state = scope.state {
      uses.note(.contacts, "read birthdays", state)
      if case .some = scope {
        uses.touch(instances.compactMap { EventStore.birthdayContact($0.id, scope) }, for: .contacts)
      }
    }
    return instances
  }
}
