internal import LMDB

/// Typed access to the fields of a ``Payload`` by tag: the first value, or every value of a
/// repeated tag. A field of the wrong size reads as a malformed payload, never as a default.
///
/// The reader keeps the payload's bytes once and an index of where each field is: reading a field
/// copies only that field (and a number or a flag nothing at all), and a nested message shares the
/// same bytes. Payloads have a few dozen fields at most, so a lookup is a short linear scan.
struct PayloadReader {
  private let storage: [UInt8]
  private let spans: [PayloadSpan]

  init(_ payload: Payload) throws(StoreError) {
    storage = payload.bytes
    spans = try PayloadSpan.scan(storage, 0..<storage.count)
  }

  init(bytes: RawSpan) throws(StoreError) {
    try self.init(Payload(bytes: Array(copying: bytes)))
  }

  /// A reader of the nested message in `range` of `storage` (already validated as one field).
  private init(nested storage: [UInt8], _ range: Range<Int>) throws(StoreError) {
    self.storage = storage
    spans = try PayloadSpan.scan(storage, range)
  }

  func has(_ tag: UInt8) -> Bool { first(tag) != nil }

  func bytes(_ tag: UInt8) -> [UInt8]? { first(tag).map { Array(storage[$0]) } }

  func string(_ tag: UInt8) throws(StoreError) -> String? {
    guard let range = first(tag) else { return nil }
    return try text(range, tag)
  }

  func requiredString(_ tag: UInt8) throws(StoreError) -> String {
    guard let text = try string(tag) else { throw .malformedPayload("required field \(tag) is missing") }
    return text
  }

  func strings(_ tag: UInt8) throws(StoreError) -> [String] {
    var out: [String] = []
    for span in spans where span.tag == tag { out.append(try text(span.range, tag)) }
    return out
  }

  func unsigned(_ tag: UInt8) throws(StoreError) -> UInt64? {
    guard let range = first(tag) else { return nil }
    return try number(range, tag)
  }

  func signed(_ tag: UInt8) throws(StoreError) -> Int64? {
    try unsigned(tag).map { Int64(bitPattern: $0) }
  }

  func signedList(_ tag: UInt8) throws(StoreError) -> [Int64] {
    var out: [Int64] = []
    for span in spans where span.tag == tag { out.append(Int64(bitPattern: try number(span.range, tag))) }
    return out
  }

  func unsignedList(_ tag: UInt8) throws(StoreError) -> [UInt64] {
    var out: [UInt64] = []
    for span in spans where span.tag == tag { out.append(try number(span.range, tag)) }
    return out
  }

  func bytesList(_ tag: UInt8) -> [[UInt8]] {
    spans.filter { $0.tag == tag }.map { Array(storage[$0.range]) }
  }

  func bool(_ tag: UInt8) throws(StoreError) -> Bool? {
    guard let range = first(tag) else { return nil }
    guard range.count == 1, storage[range.lowerBound] <= 1 else {
      throw .malformedPayload("field \(tag) is not a boolean")
    }
    return storage[range.lowerBound] == 1
  }

  func objectID(_ tag: UInt8) throws(StoreError) -> ObjectID? {
    guard let range = first(tag) else { return nil }
    guard let id = ObjectID(bytes: storage[range]) else {
      throw .malformedPayload("field \(tag) is not a 16-byte identifier")
    }
    return id
  }

  func requiredObjectID(_ tag: UInt8) throws(StoreError) -> ObjectID {
    guard let id = try objectID(tag) else { throw .malformedPayload("required identifier field \(tag) is missing") }
    return id
  }

  func objectIDs(_ tag: UInt8) throws(StoreError) -> [ObjectID] {
    var out: [ObjectID] = []
    for span in spans where span.tag == tag {
      guard let id = ObjectID(bytes: storage[span.range]) else {
        throw .malformedPayload("field \(tag) is not a 16-byte identifier")
      }
      out.append(id)
    }
    return out
  }

  func messages(_ tag: UInt8) throws(StoreError) -> [PayloadReader] {
    var out: [PayloadReader] = []
    for span in spans where span.tag == tag { out.append(try PayloadReader(nested: storage, span.range)) }
    return out
  }

  /// Where the first value of `tag` is.
  private func first(_ tag: UInt8) -> Range<Int>? {
    for span in spans where span.tag == tag { return span.range }
    return nil
  }

  private func text(_ range: Range<Int>, _ tag: UInt8) throws(StoreError) -> String {
    // Validated as a span of bytes: `String(validating:as:)` is generic over the collection and the
    // encoding, and instantiated its metadata at run time for each string (4 % of the time of
    // `EventStore.events(matching:)`).
    let text: String? = storage.withUnsafeBufferPointer { buffer in
      guard let utf8 = try? UTF8Span(validating: UnsafeBufferPointer(rebasing: buffer[range]).span) else { return nil }
      return String(copying: utf8)
    }
    guard let text else { throw .malformedPayload("field \(tag) is not UTF-8 text") }
    return text
  }

  private func number(_ range: Range<Int>, _ tag: UInt8) throws(StoreError) -> UInt64 {
    guard range.count == 8 else { throw .malformedPayload("field \(tag) is \(range.count) bytes, not 8") }
    var value: UInt64 = 0
    for byte in storage[range] { value = value << 8 | UInt64(byte) }
    return value
  }
}

extension Payload {
  /// Appends a nested payload as one field (type `message`).
  mutating func append(tag: UInt8, message: Payload) {
    append(tag: tag, bytes: message.bytes)
  }

  /// Appends a string field when `value` is not `nil`.
  mutating func append(tag: UInt8, optional value: String?) {
    if let value { append(tag: tag, string: value) }
  }

  /// Appends an identifier field.
  mutating func append(tag: UInt8, id: ObjectID) {
    append(tag: tag, bytes: id.bytes)
  }
}
