internal import LMDB

extension ContactStore {
  /// Shows the person the contact picker for this client session's app and hands the app the
  /// contact the person picks, once: as `CNContactPickerViewController`, it needs no access to
  /// contacts and grants none. The pick is recorded (`contactPicked`, by the person); a cancelled
  /// picker records nothing and returns `nil`.
  ///
  /// - Throws: ``StoreError/invalidInput(_:)`` for the owner, who needs no picker;
  ///   ``ContactError/contactNotFound(_:)`` when the picked contact is gone by the time it is
  ///   handed over.
  public func pickContact(using picker: some ContactPicker) throws(StoreError) -> Contact? {
    guard let clientID = sessionClient else {
      throw .invalidInput("the owner reads contacts directly; the picker is for an app's session")
    }
    let permissions = try permissions()
    let book = try contactsBook()
    let sessionStart = self.sessionStart
    let token = identification?.tokenID
    let (client, everyone): (Client, [Contact]) = try StoreError.wrapping {
      try store.environment.read { txn in
        try permissions.checkSession(clientID, start: sessionStart, token: token, in: txn)
        guard let client = try permissions.client(clientID, in: txn) else {
          throw StoreError.access(.clientNotRegistered(clientID))
        }
        let contacts = try book.all(.contact, in: txn).compactMap { try Self.liveContact($0, book, in: txn) }
        return (client, Self.inNameOrder(contacts))
      }
    }
    guard let picked = picker.pick(for: client, from: everyone) else { return nil }
    let answerer = (picker as? any AnswerWitness)?.answerer()
    return try StoreError.wrapping {
      try store.write(caller: identifiedCaller) { txn, appender in
        appender.answerer = answerer
        guard var contact = try txn.reading({ try Self.liveContact(picked, book, in: $0) }) else {
          throw StoreError.contact(.contactNotFound(picked))
        }
        var payload = Payload()
        payload.append(tag: 1, string: clientID)
        payload.append(tag: 2, id: picked)
        try appender.append(RecordDraft(kind: .contactPicked, principal: .person, payload: payload), in: &txn)
        // The app is handed the card, not the person's groups.
        contact.groupIDs = []
        return contact
      }
    }
  }
}
