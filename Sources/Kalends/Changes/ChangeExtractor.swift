/// The object a record changes and how, read from its kind and payload (docs/log-format.md)
/// in place: two fields, found by walking the field headers (``PayloadFieldIndex``), without copying
/// the payload.
enum ChangeExtractor {
  /// `nil` for records that change no object (the store's creation, annotations, refused
  /// attempts, which are facts for the audit but change nothing a subscriber holds).
  static func change(_ header: LogRecordHeader, _ payload: RawSpan) throws(StoreError) -> (ChangedObject, ChangeKind)? {
    switch header.kind {
    case .calendarSaved, .eventSaved, .reminderSaved:
      let (id, change) = try fields(payload)
      let object = try objectID(id, payload, header)
      let kind: ChangeKind = try unsigned(change, payload, header) == ItemChange.created.rawValue ? .added : .modified
      switch header.kind {
      case .calendarSaved: return (.calendar(object), kind)
      case .eventSaved: return (.event(object), kind)
      default: return (.reminder(object), kind)
      }
    case .contactSaved, .groupSaved:
      let (id, change) = try fields(payload)
      let object = try objectID(id, payload, header)
      let kind: ChangeKind = try unsigned(change, payload, header) == ItemChange.created.rawValue ? .added : .modified
      return (header.kind == .contactSaved ? .contact(object) : .group(object), kind)
    case .contactRemoved:
      return (.contact(try objectID(try fields(payload).first, payload, header)), .removed)
    case .groupRemoved:
      return (.group(try objectID(try fields(payload).first, payload, header)), .removed)
    case .calendarRemoved:
      return (.calendar(try objectID(try fields(payload).first, payload, header)), .removed)
    case .eventRemoved:
      return (.event(try objectID(try fields(payload).first, payload, header)), .removed)
    case .reminderRemoved:
      return (.reminder(try objectID(try fields(payload).first, payload, header)), .removed)
    case .clientRegistered:
      return (.client(try string(try fields(payload).first, payload, header)), .added)
    case .accessRequested, .accessDecided:
      return (.client(try string(try fields(payload).first, payload, header)), .accessChanged)
    default:
      return nil
    }
  }

  /// The calendar a record of an event names (field 2), or a calendar record's own identifier;
  /// `nil` for other records.
  static func calendar(_ header: LogRecordHeader, _ payload: RawSpan) throws(StoreError) -> ObjectID? {
    let tag: UInt8
    switch header.kind {
    case .calendarSaved, .calendarRemoved: tag = 1
    case .eventSaved, .eventRemoved: tag = 2
    default: return nil
    }
    guard let range = try PayloadFieldIndex(payload)[tag], range.count == 16 else { return nil }
    return ObjectID(payload, at: range.lowerBound)
  }

  /// Where the first values of fields 1 and 3 are in `payload`.
  private static func fields(_ payload: RawSpan) throws(StoreError) -> (first: Range<Int>?, third: Range<Int>?) {
    let index = try PayloadFieldIndex(payload)
    return (index[1], index[3])
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
