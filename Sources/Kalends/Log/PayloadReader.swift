internal import LMDB

/// Typed access to the fields of a ``Payload`` by tag: the first value, or every value of a
/// repeated tag. A field of the wrong size reads as a malformed payload, never as a default.
struct PayloadReader {
  private var fields: [UInt8: [[UInt8]]] = [:]

  init(_ payload: Payload) throws(StoreError) {
    for field in try payload.fields() { fields[field.tag, default: []].append(field.value) }
  }

  init(bytes: RawSpan) throws(StoreError) {
    try self.init(Payload(bytes: Array(copying: bytes)))
  }

  func has(_ tag: UInt8) -> Bool { fields[tag] != nil }

  func bytes(_ tag: UInt8) -> [UInt8]? { fields[tag]?.first }

  func string(_ tag: UInt8) throws(StoreError) -> String? {
    guard let value = bytes(tag) else { return nil }
    guard let text = String(validating: value, as: UTF8.self) else {
      throw .malformedPayload("field \(tag) is not UTF-8 text")
    }
    return text
  }

  func requiredString(_ tag: UInt8) throws(StoreError) -> String {
    guard let text = try string(tag) else { throw .malformedPayload("required field \(tag) is missing") }
    return text
  }

  func strings(_ tag: UInt8) throws(StoreError) -> [String] {
    var out: [String] = []
    for value in fields[tag] ?? [] {
      guard let text = String(validating: value, as: UTF8.self) else {
        throw .malformedPayload("field \(tag) is not UTF-8 text")
      }
      out.append(text)
    }
    return out
  }

  func unsigned(_ tag: UInt8) throws(StoreError) -> UInt64? {
    guard let value = bytes(tag) else { return nil }
    return try Self.number(value, tag)
  }

  func signed(_ tag: UInt8) throws(StoreError) -> Int64? {
    try unsigned(tag).map { Int64(bitPattern: $0) }
  }

  func signedList(_ tag: UInt8) throws(StoreError) -> [Int64] {
    var out: [Int64] = []
    for value in fields[tag] ?? [] { out.append(Int64(bitPattern: try Self.number(value, tag))) }
    return out
  }

  func bool(_ tag: UInt8) throws(StoreError) -> Bool? {
    guard let value = bytes(tag) else { return nil }
    guard value.count == 1, value[0] <= 1 else { throw .malformedPayload("field \(tag) is not a boolean") }
    return value[0] == 1
  }

  func objectID(_ tag: UInt8) throws(StoreError) -> ObjectID? {
    guard let value = bytes(tag) else { return nil }
    guard let id = ObjectID(bytes: value) else { throw .malformedPayload("field \(tag) is not a 16-byte identifier") }
    return id
  }

  func requiredObjectID(_ tag: UInt8) throws(StoreError) -> ObjectID {
    guard let id = try objectID(tag) else { throw .malformedPayload("required identifier field \(tag) is missing") }
    return id
  }

  func messages(_ tag: UInt8) throws(StoreError) -> [PayloadReader] {
    var out: [PayloadReader] = []
    for value in fields[tag] ?? [] { out.append(try PayloadReader(Payload(bytes: value))) }
    return out
  }

  private static func number(_ value: [UInt8], _ tag: UInt8) throws(StoreError) -> UInt64 {
    guard value.count == 8 else { throw .malformedPayload("field \(tag) is \(value.count) bytes, not 8") }
    return value.reduce(0) { $0 << 8 | UInt64($1) }
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
