internal import Crypto
internal import LMDB

/// The byte format of log records (docs/log-format.md): encoding in the current version, decoding
/// of every version ever written.
enum RecordCodec {
  /// The version new records are written in.
  static let currentVersion: UInt8 = 1
  /// Bytes of a version 1 record around its variable parts.
  static let fixedSize = 1 + 8 + 8 + 1 + 2 + 2 + 4 + 32 + 32
  /// The largest payload accepted (16 MiB).
  static let maximumPayloadSize = 16 << 20

  /// Appends the version 1 encoding of a record to `buffer` and returns its hash.
  static func encode(
    into buffer: inout [UInt8], position: LogPosition, timestamp: Timestamp, draft: RecordDraft,
    previousHash: RecordHash
  ) -> RecordHash {
    let start = buffer.count
    let identifier = draft.principal.identifier.utf8
    buffer.append(currentVersion)
    appendBigEndian(position.rawValue, to: &buffer)
    appendBigEndian(UInt64(bitPattern: timestamp.rawValue), to: &buffer)
    buffer.append(draft.principal.code)
    appendBigEndian(UInt16(identifier.count), to: &buffer)
    buffer.append(contentsOf: identifier)
    appendBigEndian(draft.kind.rawValue, to: &buffer)
    appendBigEndian(UInt32(draft.payload.bytes.count), to: &buffer)
    buffer.append(contentsOf: draft.payload.bytes)
    previousHash.appendBytes(to: &buffer)
    let hash = buffer.withUnsafeBytes { leafHash(UnsafeRawBufferPointer(rebasing: $0[start...])) }
    hash.appendBytes(to: &buffer)
    return hash
  }

  /// RFC 6962 leaf hash: `SHA-256(0x00 ‖ bytes)`.
  static func leafHash(_ bytes: UnsafeRawBufferPointer) -> RecordHash {
    var hasher = SHA256()
    withUnsafeBytes(of: UInt8(0x00)) { hasher.update(bufferPointer: $0) }
    hasher.update(bufferPointer: bytes)
    return RecordHash(digest: hasher.finalize())
  }

  /// The hash a stored record should have, computed from its bytes (all but the last 32).
  static func computedHash(of record: RawSpan) -> RecordHash? {
    guard record.byteCount > 32 else { return nil }
    return record.withUnsafeBytes { buffer in
      leafHash(UnsafeRawBufferPointer(rebasing: buffer[..<(buffer.count - 32)]))
    }
  }

  /// Decodes the header of a stored record of any known version, and where its payload lies.
  static func decodeHeader(_ bytes: RawSpan) throws(StoreError) -> (LogRecordHeader, Range<Int>) {
    var principals = PrincipalCache()
    return try decodeHeader(bytes, principals: &principals)
  }

  /// Decodes the header of a stored record, reusing the principal of the record decoded before with
  /// `principals` when it is the same: for scans, which would otherwise decode (and allocate) the
  /// same app's identifier once per record.
  static func decodeHeader(
    _ bytes: RawSpan, principals: inout PrincipalCache
  ) throws(StoreError) -> (LogRecordHeader, Range<Int>) {
    guard bytes.byteCount >= 1 else { throw .malformedRecord("empty record") }
    let version = bytes.unsafeLoad(fromByteOffset: 0, as: UInt8.self)
    switch version {
    case 1: return try decodeVersion1(bytes, principals: &principals)
    default:
      throw .unsupportedRecordVersion(version)
    }
  }

  /// A copy of the payload of a stored record, or `nil` when the record is malformed.
  static func payload(of bytes: RawSpan) -> [UInt8]? {
    guard let (_, range) = try? decodeHeader(bytes) else { return nil }
    return Array(copying: bytes.extracting(range))
  }

  /// Decodes a whole stored record, copying its payload.
  static func decode(_ bytes: RawSpan) throws(StoreError) -> LogRecord {
    let (header, payloadRange) = try decodeHeader(bytes)
    let payload = Array(copying: bytes.extracting(payloadRange))
    return LogRecord(header: header, payload: Payload(bytes: payload))
  }

  private static func decodeVersion1(
    _ bytes: RawSpan, principals: inout PrincipalCache
  ) throws(StoreError) -> (LogRecordHeader, Range<Int>) {
    let count = bytes.byteCount
    guard count >= fixedSize else { throw .malformedRecord("\(count) bytes, shorter than the fixed \(fixedSize)") }
    var offset = 1
    let position = loadBigEndian(bytes, &offset, as: UInt64.self)
    let timestamp = Int64(bitPattern: loadBigEndian(bytes, &offset, as: UInt64.self))
    let principalCode = bytes.unsafeLoad(fromByteOffset: offset, as: UInt8.self)
    offset += 1
    let identifierCount = Int(loadBigEndian(bytes, &offset, as: UInt16.self))
    guard identifierCount <= count - fixedSize else {
      throw .malformedRecord("principal identifier of \(identifierCount) bytes runs past the end")
    }
    let identifierRange = offset..<(offset + identifierCount)
    offset += identifierCount
    let kind = loadBigEndian(bytes, &offset, as: UInt16.self)
    let payloadCount = Int(loadBigEndian(bytes, &offset, as: UInt32.self))
    guard payloadCount == count - fixedSize - identifierCount else {
      throw .malformedRecord(
        "payload length \(payloadCount) does not match the record size (\(count - fixedSize - identifierCount))")
    }
    let payloadRange = offset..<(offset + payloadCount)
    offset += payloadCount
    let previous = loadHash(bytes, &offset)
    let hash = loadHash(bytes, &offset)

    let principal = try principals.principal(code: principalCode, identifier: bytes.extracting(identifierRange))
    let header = LogRecordHeader(
      formatVersion: 1, position: LogPosition(position), timestamp: Timestamp(rawValue: timestamp),
      principal: principal, kind: RecordKind(rawValue: kind), previousHash: previous, hash: hash)
    return (header, payloadRange)
  }

  @inline(__always)
  private static func loadBigEndian<T: FixedWidthInteger & BitwiseCopyable>(
    _ bytes: RawSpan, _ offset: inout Int, as type: T.Type
  ) -> T {
    let value = T(bigEndian: bytes.unsafeLoadUnaligned(fromByteOffset: offset, as: T.self))
    offset += MemoryLayout<T>.size
    return value
  }

  @inline(__always)
  private static func loadHash(_ bytes: RawSpan, _ offset: inout Int) -> RecordHash {
    let w0 = loadBigEndian(bytes, &offset, as: UInt64.self)
    let w1 = loadBigEndian(bytes, &offset, as: UInt64.self)
    let w2 = loadBigEndian(bytes, &offset, as: UInt64.self)
    let w3 = loadBigEndian(bytes, &offset, as: UInt64.self)
    return RecordHash(words: w0, w1, w2, w3)
  }

  @inline(__always)
  static func appendBigEndian<T: FixedWidthInteger>(_ value: T, to buffer: inout [UInt8]) {
    var bigEndian = value.bigEndian
    withUnsafeBytes(of: &bigEndian) { buffer.append(contentsOf: $0) }
  }
}

/// The principal of the last record decoded, kept to decode the next record's principal without
/// validating and copying its identifier again when it is the same (as it is in long runs of records
/// written by one app).
struct PrincipalCache {
  private var code: UInt8 = 0
  private var identifier: [UInt8] = []
  private var principal: Principal = .system

  /// The principal stored as type `code` with `identifier` in a version 1 record.
  mutating func principal(code: UInt8, identifier: RawSpan) throws(StoreError) -> Principal {
    switch code {
    case 0 where identifier.byteCount == 0: return .system
    case 1 where identifier.byteCount == 0: return .person
    case 2, 3:
      let isCached = identifier.withUnsafeBytes { bytes in
        code == self.code && self.identifier.withUnsafeBytes { bytes.elementsEqual($0) }
      }
      if isCached { return principal }
      let text = identifier.withUnsafeBytes { String(validating: $0, as: UTF8.self) }
      guard let text, !text.isEmpty else { throw .malformedRecord("principal identifier is not UTF-8 text") }
      self.code = code
      self.identifier = Array(copying: identifier)
      principal = code == 2 ? .client(text) : .policy(text)
      return principal
    default:
      throw .malformedRecord("unknown principal type \(code) with \(identifier.byteCount) identifier bytes")
    }
  }
}
