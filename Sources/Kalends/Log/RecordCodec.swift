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
    let hash = leafHash(buffer[start...])
    hash.appendBytes(to: &buffer)
    return hash
  }

  /// RFC 6962 leaf hash: `SHA-256(0x00 ‖ bytes)`.
  static func leafHash(_ bytes: ArraySlice<UInt8>) -> RecordHash {
    var hasher = SHA256()
    hasher.update(data: [0x00])
    hasher.update(data: bytes)
    return RecordHash(digest: hasher.finalize())
  }

  /// The hash a stored record should have, computed from its bytes (all but the last 32).
  static func computedHash(of record: RawSpan) -> RecordHash? {
    guard record.byteCount > 32 else { return nil }
    return record.withUnsafeBytes { buffer in
      var hasher = SHA256()
      hasher.update(data: [0x00])
      hasher.update(bufferPointer: UnsafeRawBufferPointer(rebasing: buffer[..<(buffer.count - 32)]))
      return RecordHash(digest: hasher.finalize())
    }
  }

  /// Decodes the header of a stored record of any known version, and where its payload lies.
  static func decodeHeader(_ bytes: RawSpan) throws(StoreError) -> (LogRecordHeader, Range<Int>) {
    guard bytes.byteCount >= 1 else { throw .malformedRecord("empty record") }
    let version = bytes.unsafeLoad(fromByteOffset: 0, as: UInt8.self)
    switch version {
    case 1: return try decodeVersion1(bytes)
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

  private static func decodeVersion1(_ bytes: RawSpan) throws(StoreError) -> (LogRecordHeader, Range<Int>) {
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

    let principal: Principal
    switch principalCode {
    case 0 where identifierCount == 0: principal = .system
    case 1 where identifierCount == 0: principal = .person
    case 2, 3:
      let text = bytes.extracting(identifierRange).withUnsafeBytes { String(validating: $0, as: UTF8.self) }
      guard let text, !text.isEmpty else { throw .malformedRecord("principal identifier is not UTF-8 text") }
      principal = principalCode == 2 ? .client(text) : .policy(text)
    default:
      throw .malformedRecord("unknown principal type \(principalCode) with \(identifierCount) identifier bytes")
    }
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
