internal import LMDB
internal import Platform

/// The byte format of log records (docs/log-format.md): encoding in the current version, decoding
/// of every version ever written.
package enum RecordCodec {
  /// The version new records are written in when they carry no caller context.
  static let currentVersion: UInt8 = 1
  /// The version of records that carry how their actor was identified (the store server's).
  static let contextVersion: UInt8 = 2
  /// The version of records whose content can be erased (``RecordSchema/contentTags``): their leaf
  /// hash covers a salted commitment to the content, not the content (``encodeSealed``).
  static let sealedVersion: UInt8 = 3
  /// The content forms of a version 3 record: present (with its salt), erased (its commitment
  /// kept), erased from a record written in version 1 or 2 (nothing left to recompute its hash).
  enum ContentForm: UInt8 {
    case present = 0
    case erased = 1
    case erasedLegacy = 2
  }
  /// Bytes of a version 1 record around its variable parts.
  static let fixedSize = 1 + 8 + 8 + 1 + 2 + 2 + 4 + 32 + 32
  /// The largest caller context accepted.
  static let maximumContextSize = 8_192
  /// The largest payload accepted (16 MiB).
  static let maximumPayloadSize = 16 << 20

  /// Replaces the contents of `buffer` with `0x00 ‖ record`: the encoding of a record behind its
  /// leaf hash's prefix, so that the hashed bytes are contiguous and hashed in one call (without a
  /// first update of one byte buffered on its own) — version 1, or version 2 when `context` (the
  /// caller's identification, encoded as payload fields) is not empty. Returns the record's hash;
  /// the record to store is `buffer[1...]`.
  package static func encode(
    into buffer: inout [UInt8], position: LogPosition, timestamp: Timestamp, draft: RecordDraft,
    previousHash: RecordHash, context: [UInt8] = []
  ) -> RecordHash {
    var identifier = draft.principal.identifier
    let payload = draft.payload.bytes
    let contextSize = context.isEmpty ? 0 : 2 + context.count
    let size = 1 + fixedSize + identifier.utf8.count + contextSize + payload.count
    // Every byte is written below: only the count changes, and only when the size does.
    if buffer.count > size {
      buffer.removeLast(buffer.count - size)
    } else if buffer.count < size {
      buffer.append(contentsOf: repeatElement(0, count: size - buffer.count))
    }
    return buffer.withUnsafeMutableBytes { bytes in
      var writer = Writer(bytes: bytes)
      writer.write(UInt8(0x00))
      writer.write(context.isEmpty ? currentVersion : contextVersion)
      writer.write(position.rawValue)
      writer.write(UInt64(bitPattern: timestamp.rawValue))
      writer.write(draft.principal.code)
      identifier.withUTF8 { identifier in
        writer.write(UInt16(identifier.count))
        writer.write(UnsafeRawBufferPointer(identifier))
      }
      if !context.isEmpty {
        writer.write(UInt16(context.count))
        context.withUnsafeBytes { writer.write($0) }
      }
      writer.write(draft.kind.rawValue)
      writer.write(UInt32(payload.count))
      payload.withUnsafeBytes { writer.write($0) }
      previousHash.withBytes { writer.write($0) }
      let hashed = UnsafeRawBufferPointer(rebasing: writer.bytes[..<writer.offset])
      let hash = RecordHash(digest: SHA256.hash(data: hashed))
      hash.withBytes { writer.write($0) }
      assert(writer.offset == size)
      return hash
    }
  }

  /// Writes big-endian numbers and bytes one after the other into memory sized for them.
  struct Writer {
    let bytes: UnsafeMutableRawBufferPointer
    var offset = 0

    @inline(__always)
    mutating func write<T: FixedWidthInteger>(_ value: T) {
      bytes.storeBytes(of: value.bigEndian, toByteOffset: offset, as: T.self)
      offset += MemoryLayout<T>.size
    }

    @inline(__always)
    mutating func write(_ source: UnsafeRawBufferPointer) {
      UnsafeMutableRawBufferPointer(rebasing: bytes[offset..<(offset + source.count)]).copyMemory(from: source)
      offset += source.count
    }
  }

  /// RFC 6962 leaf hash: `SHA-256(0x00 ‖ bytes)`.
  package static func leafHash(_ bytes: UnsafeRawBufferPointer) -> RecordHash {
    var hasher = SHA256()
    withUnsafeBytes(of: UInt8(0x00)) { hasher.update(bufferPointer: $0) }
    hasher.update(bufferPointer: bytes)
    return RecordHash(digest: hasher.finalize())
  }

  /// The hash a stored record should have, computed from its bytes (all but the last 32).
  /// For a version 3 record whose content is present, the hash of its erased form (the content
  /// replaced by its commitment); `nil` for a record erased from version 1 or 2, whose hash can no
  /// longer be recomputed.
  static func computedHash(of record: RawSpan) -> RecordHash? {
    guard record.byteCount > 32 else { return nil }
    if record.unsafeLoad(fromByteOffset: 0, as: UInt8.self) == sealedVersion {
      return try? sealedHash(of: record)
    }
    return record.withUnsafeBytes { buffer in
      leafHash(UnsafeRawBufferPointer(rebasing: buffer[..<(buffer.count - 32)]))
    }
  }

  /// Decodes the header of a stored record of any known version, and where its payload lies.
  static func decodeHeader(_ bytes: RawSpan) throws(StoreError) -> (LogRecordHeader, Range<Int>) {
    var principals = PrincipalCache()
    let decoded = try decodeHeader(bytes, principals: &principals)
    return (decoded.header, decoded.payload)
  }

  /// Decodes the header of a stored record, reusing the principal of the record decoded before with
  /// `principals` when it is the same: for scans, which would otherwise decode (and allocate) the
  /// same app's identifier once per record.
  @inline(__always)
  static func decodeHeader(
    _ bytes: RawSpan, principals: inout PrincipalCache
  ) throws(StoreError) -> DecodedHeader {
    guard bytes.byteCount >= 1 else { throw .malformedRecord("empty record") }
    let version = bytes.unsafeLoad(fromByteOffset: 0, as: UInt8.self)
    switch version {
    case 1, 2: return try decodeVersion1or2(bytes, version: version, principals: &principals)
    case 3: return try decodeVersion3(bytes, principals: &principals)
    default:
      throw .unsupportedRecordVersion(version)
    }
  }

  /// A copy of the payload of a stored record, or `nil` when the record is malformed.
  static func payload(of bytes: RawSpan) -> [UInt8]? {
    guard let (_, range) = try? decodeHeader(bytes) else { return nil }
    return Array(copying: bytes.extracting(range))
  }

  /// The timestamp of a stored record, read without decoding the rest; `nil` when it is too short
  /// to be one.
  static func timestamp(of bytes: RawSpan) -> Timestamp? {
    guard bytes.byteCount >= fixedSize else { return nil }
    var offset = 9
    return Timestamp(rawValue: Int64(bitPattern: loadBigEndian(bytes, &offset, as: UInt64.self)))
  }

  /// Decodes a whole stored record, copying its payload and its caller context.
  package static func decode(_ bytes: RawSpan) throws(StoreError) -> LogRecord {
    var principals = PrincipalCache()
    let decoded = try decodeHeader(bytes, principals: &principals)
    let payload = Array(copying: bytes.extracting(decoded.payload))
    let identification = try decoded.context.map { range throws(StoreError) in
      try CallerEvidence(context: bytes.extracting(range))
    }
    return LogRecord(header: decoded.header, payload: Payload(bytes: payload), identification: identification)
  }

  /// Version 2 is version 1 with a caller context (a length of 2 bytes and payload-style fields)
  /// between the actor and the kind.
  @inline(__always)
  private static func decodeVersion1or2(
    _ bytes: RawSpan, version: UInt8, principals: inout PrincipalCache
  ) throws(StoreError) -> DecodedHeader {
    let count = bytes.byteCount
    let fixedSize = version == 1 ? Self.fixedSize : Self.fixedSize + 2
    guard count >= fixedSize else { throw .malformedRecord("\(count) bytes, shorter than the fixed \(fixedSize)") }
    var offset = 1
    let (position, timestamp, principalCode, identifierRange) = try decodeLead(bytes, &offset, fixedSize: fixedSize)
    let identifierCount = identifierRange.count
    var context: Range<Int>?
    if version == 2 {
      let contextCount = Int(loadBigEndian(bytes, &offset, as: UInt16.self))
      guard contextCount > 0, contextCount <= count - fixedSize - identifierCount else {
        throw .malformedRecord("a caller context of \(contextCount) bytes is empty or runs past the end")
      }
      context = offset..<(offset + contextCount)
      offset += contextCount
    }
    let variable = identifierCount + (context?.count ?? 0)
    let kind = loadBigEndian(bytes, &offset, as: UInt16.self)
    let payloadCount = Int(loadBigEndian(bytes, &offset, as: UInt32.self))
    guard payloadCount == count - fixedSize - variable else {
      throw .malformedRecord(
        "payload length \(payloadCount) does not match the record size (\(count - fixedSize - variable))")
    }
    let payloadRange = offset..<(offset + payloadCount)
    offset += payloadCount
    let previous = loadHash(bytes, &offset)
    let hash = loadHash(bytes, &offset)

    let principal = try principals.principal(code: principalCode, identifier: bytes.extracting(identifierRange))
    let header = LogRecordHeader(
      formatVersion: version, position: LogPosition(position), timestamp: Timestamp(rawValue: timestamp),
      principal: principal, kind: RecordKind(rawValue: kind), previousHash: previous, hash: hash)
    return DecodedHeader(header: header, payload: payloadRange, context: context)
  }

  /// The fields every version starts with, read from `offset` (just after the version byte) and
  /// moving it past the actor: position, timestamp, the principal's type code and where its
  /// identifier lies, which must leave at least `fixedSize` bytes for the rest of the record.
  @inline(__always)
  static func decodeLead(
    _ bytes: RawSpan, _ offset: inout Int, fixedSize: Int
  ) throws(StoreError) -> (position: UInt64, timestamp: Int64, principalCode: UInt8, identifier: Range<Int>) {
    let position = loadBigEndian(bytes, &offset, as: UInt64.self)
    let timestamp = Int64(bitPattern: loadBigEndian(bytes, &offset, as: UInt64.self))
    let principalCode = bytes.unsafeLoad(fromByteOffset: offset, as: UInt8.self)
    offset += 1
    let identifierCount = Int(loadBigEndian(bytes, &offset, as: UInt16.self))
    guard identifierCount <= bytes.byteCount - fixedSize else {
      throw .malformedRecord("principal identifier of \(identifierCount) bytes runs past the end")
    }
    let identifier = offset..<(offset + identifierCount)
    offset += identifierCount
    return (position, timestamp, principalCode, identifier)
  }

  @inline(__always)
  static func loadBigEndian<T: FixedWidthInteger & BitwiseCopyable>(
    _ bytes: RawSpan, _ offset: inout Int, as type: T.Type
  ) -> T {
    let value = T(bigEndian: bytes.unsafeLoadUnaligned(fromByteOffset: offset, as: T.self))
    offset += MemoryLayout<T>.size
    return value
  }

  @inline(__always)
  static func loadHash(_ bytes: RawSpan, _ offset: inout Int) -> RecordHash {
    let w0 = loadBigEndian(bytes, &offset, as: UInt64.self)
    let w1 = loadBigEndian(bytes, &offset, as: UInt64.self)
    let w2 = loadBigEndian(bytes, &offset, as: UInt64.self)
    let w3 = loadBigEndian(bytes, &offset, as: UInt64.self)
    return RecordHash(words: w0, w1, w2, w3)
  }

  /// The big-endian unsigned number in `bytes` (at most 8 of them).
  static func readBigEndian(_ bytes: some Collection<UInt8>) -> UInt64 {
    bytes.reduce(0) { $0 << 8 | UInt64($1) }
  }

  /// Appends `value` to `buffer` in big-endian byte order.
  @inline(__always)
  static func appendBigEndian<T: FixedWidthInteger>(_ value: T, to buffer: inout [UInt8]) {
    var bigEndian = value.bigEndian
    withUnsafeBytes(of: &bigEndian) { buffer.append(contentsOf: $0) }
  }
}

/// A decoded record header, where the payload lies in the record's bytes, and where its caller
/// context does (version 2).
struct DecodedHeader {
  let header: LogRecordHeader
  let payload: Range<Int>
  var context: Range<Int>? = nil
}

/// The principal of the last record decoded, kept to decode the next record's principal without
/// validating and copying its identifier again when it is the same (as it is in long runs of records
/// written by one app).
struct PrincipalCache {
  /// The cached principal's type code; 255, no type, until a client or a policy is decoded.
  private var code: UInt8 = .max
  private var identifier: [UInt8] = []
  private var principal: Principal = .system

  /// The principal stored as type `code` with `identifier` in a version 1 record.
  @inline(__always)
  mutating func principal(code: UInt8, identifier: RawSpan) throws(StoreError) -> Principal {
    let isCached =
      code == self.code && identifier.byteCount == self.identifier.count
      && identifier.withUnsafeBytes { bytes in
        self.identifier.withUnsafeBytes { memcmp(bytes.baseAddress!, $0.baseAddress!, bytes.count) == 0 }
      }
    return isCached ? principal : try decode(code: code, identifier: identifier)
  }

  private mutating func decode(code: UInt8, identifier: RawSpan) throws(StoreError) -> Principal {
    switch code {
    case 0 where identifier.byteCount == 0: return .system
    case 1 where identifier.byteCount == 0: return .person
    case 2, 3, 4:
      let text = identifier.withUnsafeBytes { String(validating: $0, as: UTF8.self) }
      guard let text, !text.isEmpty else { throw .malformedRecord("principal identifier is not UTF-8 text") }
      self.code = code
      self.identifier = Array(copying: identifier)
      switch code {
      case 2: principal = .client(text)
      case 3: principal = .policy(text)
      default:
        guard ObjectID(text) != nil else { throw .malformedRecord("a source's identifier is not a UUID") }
        principal = .source(text)
      }
      return principal
    default:
      throw .malformedRecord("unknown principal type \(code) with \(identifier.byteCount) identifier bytes")
    }
  }
}
