/// The object a record changes and how, read from its kind and payload (docs/log-format.md).
enum ChangeExtractor {
  /// `nil` for records that change no object (the store's creation, annotations, refused
  /// attempts, which are facts for the audit but change nothing a subscriber holds).
  static func change(_ header: LogRecordHeader, _ payload: RawSpan) throws(StoreError) -> (ChangedObject, ChangeKind)? {
    switch header.kind {
    case .calendarSaved:
      let fields = try PayloadReader(bytes: payload)
      return (.calendar(try fields.requiredObjectID(1)), try savedKind(fields))
    case .eventSaved:
      let fields = try PayloadReader(bytes: payload)
      return (.event(try fields.requiredObjectID(1)), try savedKind(fields))
    case .reminderSaved:
      let fields = try PayloadReader(bytes: payload)
      return (.reminder(try fields.requiredObjectID(1)), try savedKind(fields))
    case .calendarRemoved:
      return (.calendar(try PayloadReader(bytes: payload).requiredObjectID(1)), .removed)
    case .eventRemoved:
      return (.event(try PayloadReader(bytes: payload).requiredObjectID(1)), .removed)
    case .reminderRemoved:
      return (.reminder(try PayloadReader(bytes: payload).requiredObjectID(1)), .removed)
    case .clientRegistered:
      return (.client(try PayloadReader(bytes: payload).requiredString(1)), .added)
    case .accessRequested, .accessDecided:
      return (.client(try PayloadReader(bytes: payload).requiredString(1)), .accessChanged)
    default:
      return nil
    }
  }

  private static func savedKind(_ fields: PayloadReader) throws(StoreError) -> ChangeKind {
    try fields.unsigned(3) == ItemChange.created.rawValue ? .added : .modified
  }
}
