/// What a record says of the name of a calendar or a contact: what a holder of a log's records (a
/// fleet's mirror) keeps to name them as `kalends audit` names them from a store's projections.
package enum ObjectNaming {
  /// A record's effect on a name.
  package enum Change: Sendable, Hashable {
    /// The object was saved with this name: a calendar's title, a contact's display name.
    case named(ObjectID, String)
    /// The object was removed: no name is shown for it any more.
    case removed(ObjectID)
  }

  /// The change `record` makes to a name; `nil` for a record of another kind, and for a save whose
  /// content was erased (its object was removed before).
  package static func change(in record: RawSpan) throws(StoreError) -> Change? {
    let (header, payload) = try RecordCodec.decodeHeader(record)
    switch header.kind {
    case .calendarSaved, .contactSaved:
      let fields = try PayloadReader(bytes: record.extracting(payload))
      let id = try fields.requiredObjectID(1)
      guard let state = try fields.messages(5).first else { return nil }
      if header.kind == .calendarSaved {
        return .named(id, try ModelCodec.decodeCalendar(id: id, version: .none, state).title)
      }
      return .named(id, try ContactCodec.decodeContact(id: id, version: .none, modified: nil, state).displayName)
    case .calendarRemoved, .contactRemoved:
      return .removed(try PayloadReader(bytes: record.extracting(payload)).requiredObjectID(1))
    default:
      return nil
    }
  }
}
