/// The object a record changes and how, read from its kind and payload (docs/log-format.md)
/// in place: two fields, found by walking the field headers (``PayloadFieldIndex``), without copying
/// the payload.
enum ChangeExtractor {
  /// The object a record changes, how, and the calendar it names — an event's or reminder's (field
  /// 2, after the change) or a calendar's own identifier — and, for an item moved, the calendar it
  /// left (field 7), for a session limited to chosen calendars and for a calendar's sync; `nil` for
  /// records that change no object (the store's creation, annotations, refused attempts, which are
  /// facts for the audit but change nothing a subscriber holds). The payload's fields are found
  /// once.
  static func change(
    _ header: LogRecordHeader, _ payload: RawSpan
  ) throws(StoreError) -> (object: ChangedObject, kind: ChangeKind, calendar: ObjectID?, movedFrom: ObjectID?)? {
    let object: (ObjectID) -> ChangedObject
    switch header.kind {
    case .calendarSaved, .calendarRemoved: object = ChangedObject.calendar
    case .eventSaved, .eventRemoved: object = ChangedObject.event
    case .reminderSaved, .reminderRemoved: object = ChangedObject.reminder
    case .contactSaved, .contactRemoved: object = ChangedObject.contact
    case .groupSaved, .groupRemoved: object = ChangedObject.group
    case .clientRegistered, .accessRequested, .accessDecided:
      let client = try string(try PayloadFieldIndex(payload)[1], payload, header)
      return (.client(client), header.kind == .clientRegistered ? .added : .accessChanged, nil, nil)
    default:
      return nil
    }
    let fields = try PayloadFieldIndex(payload)
    let id = try objectID(fields[1], payload, header)
    let kind: ChangeKind
    switch header.kind {
    case .calendarRemoved, .eventRemoved, .reminderRemoved, .contactRemoved, .groupRemoved: kind = .removed
    default: kind = try unsigned(fields[3], payload, header) == ItemChange.created.rawValue ? .added : .modified
    }
    var calendar: ObjectID?
    var movedFrom: ObjectID?
    switch header.kind {
    case .calendarSaved, .calendarRemoved: calendar = id
    case .eventSaved, .eventRemoved, .reminderSaved, .reminderRemoved:
      if let range = fields[2], range.count == 16 { calendar = ObjectID(payload, at: range.lowerBound) }
      if let range = fields[7], range.count == 16 { movedFrom = ObjectID(payload, at: range.lowerBound) }
    default: break
    }
    return (object(id), kind, calendar, movedFrom)
  }

  /// The dates the state of a `contactSaved` record's payload holds (none once erased).
  static func contactDates(_ payload: RawSpan) throws(StoreError) -> Set<BirthdayKind> {
    guard let state = try PayloadReader(bytes: payload).messages(5).first else { return [] }
    var kinds: Set<BirthdayKind> = []
    if try state.messages(24).first != nil { kinds.insert(.birthday) }
    if try state.messages(32).first != nil { kinds.insert(.anniversary) }
    return kinds
  }

  private static func objectID(_ range: Range<Int>?, _ payload: RawSpan, _ header: LogRecordHeader) throws(StoreError)
    -> ObjectID
  {
    guard let range, range.count == 16 else { throw missing("an identifier", header) }
    return ObjectID(payload, at: range.lowerBound)
  }

  private static func unsigned(_ range: Range<Int>?, _ payload: RawSpan, _ header: LogRecordHeader) throws(StoreError)
    -> UInt64
  {
    guard let range, range.count == 8 else { throw missing("its change", header) }
    var value: UInt64 = 0
    for index in range { value = value << 8 | UInt64(payload.unsafeLoad(fromByteOffset: index, as: UInt8.self)) }
    return value
  }

  private static func string(_ range: Range<Int>?, _ payload: RawSpan, _ header: LogRecordHeader) throws(StoreError)
    -> String
  {
    guard let range else { throw missing("a client", header) }
    let bytes = payload.extracting(range).withUnsafeBytes { Array($0) }
    guard let text = String(validating: bytes, as: UTF8.self) else { throw missing("a valid client", header) }
    return text
  }

  private static func missing(_ what: String, _ header: LogRecordHeader) -> StoreError {
    .malformedPayload("the \(header.kind) record at \(header.position) has no \(what)")
  }
}
