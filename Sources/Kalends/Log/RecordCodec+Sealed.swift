internal import LMDB

/// Format version 3: records whose content can be erased while their hash stays verifiable
/// (docs/log-format.md, "Format version 3").
///
/// The payload is split into the fields kept forever (the object's identifier, its calendar, what
/// the change was) and the content (``RecordSchema/contentTags``). The record's hash is the leaf
/// hash of its *erased form*, where the content and its 16-byte random salt are replaced by the
/// commitment `SHA-256(0x02 ‖ salt ‖ content)`: erasing drops the salt and the content, keeps the
/// commitment, and leaves the hash, the Merkle tree and every checkpoint as they were. The salt
/// makes the commitment useless for confirming a guess of the content once the content is gone.
extension RecordCodec {
  /// Bytes of a version 3 record around its variable parts, with its content present: version,
  /// position, timestamp, principal type and length, context length, kind, form, salt, the two
  /// lengths, previous hash and hash.
  static let sealedFixedSize = 1 + 8 + 8 + 1 + 2 + 2 + 2 + 1 + 16 + 4 + 4 + 32 + 32
  /// The byte that starts a content commitment's hashed bytes.
  static let commitmentPrefix: UInt8 = 0x02

  /// Replaces the contents of `buffer` with `0x00 ‖ record` in version 3 when `draft`'s kind has
  /// content fields and its payload holds some, salted with `salt`, and returns the record's hash;
  /// `nil` (the buffer untouched) when there is no content to seal.
  static func encodeSealed(
    into buffer: inout [UInt8], position: LogPosition, timestamp: Timestamp, draft: RecordDraft,
    previousHash: RecordHash, context: [UInt8], salt: (UInt64, UInt64)
  ) -> RecordHash? {
    guard let contentTags = draft.kind.schema?.contentTags, !contentTags.isEmpty else { return nil }
    let payload = draft.payload.bytes
    guard let (factsCount, contentCount) = split(payload, contentTags), contentCount > 0 else { return nil }
    var identifier = draft.principal.identifier
    let size = 1 + sealedFixedSize + identifier.utf8.count + context.count + payload.count
    if buffer.count > size {
      buffer.removeLast(buffer.count - size)
    } else if buffer.count < size {
      buffer.append(contentsOf: repeatElement(0, count: size - buffer.count))
    }
    return buffer.withUnsafeMutableBytes { bytes in
      var writer = Writer(bytes: bytes)
      writer.write(UInt8(0x00))
      writer.write(sealedVersion)
      writer.write(position.rawValue)
      writer.write(UInt64(bitPattern: timestamp.rawValue))
      writer.write(draft.principal.code)
      identifier.withUTF8 { identifier in
        writer.write(UInt16(identifier.count))
        writer.write(UnsafeRawBufferPointer(identifier))
      }
      writer.write(UInt16(context.count))
      context.withUnsafeBytes { writer.write($0) }
      writer.write(draft.kind.rawValue)
      let header = writer.offset
      writer.write(ContentForm.present.rawValue)
      writer.write(salt.0)
      writer.write(salt.1)
      writer.write(UInt32(factsCount))
      writer.write(UInt32(contentCount))
      let factsStart = writer.offset
      payload.withUnsafeBytes { source in
        // The kept fields first, then the content, each in the order written.
        var content = factsStart + factsCount
        scanValidated(source) { span in
          let field = UnsafeRawBufferPointer(rebasing: source[span.headerStart..<span.range.upperBound])
          if contentTags.contains(span.tag) {
            UnsafeMutableRawBufferPointer(rebasing: writer.bytes[content..<(content + field.count)]).copyMemory(
              from: field)
            content += field.count
          } else {
            writer.write(field)
          }
        }
        writer.offset = content
      }
      previousHash.withBytes { writer.write($0) }
      let all = UnsafeRawBufferPointer(writer.bytes)
      let hash = sealedHash(
        header: UnsafeRawBufferPointer(rebasing: all[1..<header]),
        salt: UnsafeRawBufferPointer(rebasing: all[(header + 1)..<(header + 17)]),
        factsLength: UnsafeRawBufferPointer(rebasing: all[(header + 17)..<(header + 21)]),
        facts: UnsafeRawBufferPointer(rebasing: all[factsStart..<(factsStart + factsCount)]),
        content: UnsafeRawBufferPointer(
          rebasing: all[(factsStart + factsCount)..<(factsStart + factsCount + contentCount)]),
        previous: UnsafeRawBufferPointer(rebasing: all[(writer.offset - 32)..<writer.offset]))
      hash.withBytes { writer.write($0) }
      assert(writer.offset == size)
      return hash
    }
  }

  /// The byte counts of the kept fields and of the content of `payload`; `nil` when it is not a
  /// well-formed field sequence.
  static func split(_ payload: [UInt8], _ contentTags: [UInt8]) -> (facts: Int, content: Int)? {
    var content = 0
    let scanned: Bool = payload.withUnsafeBytes { source in
      do throws(StoreError) {
        try PayloadSpan.scan(source, 0..<source.count) { span in
          if contentTags.contains(span.tag) { content += span.range.upperBound - span.headerStart }
        }
        return true
      } catch {
        return false
      }
    }
    return scanned ? (payload.count - content, content) : nil
  }

  /// `SHA-256(0x02 ‖ salt ‖ content)`: what a version 3 record keeps of its content once erased.
  static func commitment(salt: UnsafeRawBufferPointer, content: UnsafeRawBufferPointer) -> SHA256.Digest {
    var commitment = SHA256()
    withUnsafeBytes(of: commitmentPrefix) { commitment.update(bufferPointer: $0) }
    commitment.update(bufferPointer: salt)
    commitment.update(bufferPointer: content)
    return commitment.finalize()
  }

  /// `SHA-256(0x00 ‖ header ‖ 0x01 ‖ SHA-256(0x02 ‖ salt ‖ content) ‖ factsLength ‖ facts ‖
  /// previous)`: the leaf hash of the record's erased form, computed from its present form.
  /// `header` is the record's bytes from the version through the kind.
  static func sealedHash(
    header: UnsafeRawBufferPointer, salt: UnsafeRawBufferPointer, factsLength: UnsafeRawBufferPointer,
    facts: UnsafeRawBufferPointer, content: UnsafeRawBufferPointer, previous: UnsafeRawBufferPointer
  ) -> RecordHash {
    var leaf = SHA256()
    withUnsafeBytes(of: UInt8(0x00)) { leaf.update(bufferPointer: $0) }
    leaf.update(bufferPointer: header)
    withUnsafeBytes(of: ContentForm.erased.rawValue) { leaf.update(bufferPointer: $0) }
    commitment(salt: salt, content: content).withUnsafeBytes { leaf.update(bufferPointer: $0) }
    leaf.update(bufferPointer: factsLength)
    leaf.update(bufferPointer: facts)
    leaf.update(bufferPointer: previous)
    return RecordHash(digest: leaf.finalize())
  }

  /// The hash a stored version 3 record should have; `nil` for one erased from version 1 or 2.
  static func sealedHash(of record: RawSpan) throws(StoreError) -> RecordHash? {
    var principals = PrincipalCache()
    let layout = try sealedLayout(record, principals: &principals)
    return record.withUnsafeBytes { bytes -> RecordHash? in
      switch layout.form {
      case .present:
        let salt = layout.formOffset + 1
        return sealedHash(
          header: UnsafeRawBufferPointer(rebasing: bytes[0..<layout.formOffset]),
          salt: UnsafeRawBufferPointer(rebasing: bytes[salt..<(salt + 16)]),
          factsLength: UnsafeRawBufferPointer(rebasing: bytes[(salt + 16)..<(salt + 20)]),
          facts: UnsafeRawBufferPointer(rebasing: bytes[layout.facts]),
          content: UnsafeRawBufferPointer(rebasing: bytes[layout.content]),
          previous: UnsafeRawBufferPointer(rebasing: bytes[(bytes.count - 64)..<(bytes.count - 32)]))
      case .erased:
        return leafHash(UnsafeRawBufferPointer(rebasing: bytes[..<(bytes.count - 32)]))
      case .erasedLegacy:
        return nil
      }
    }
  }

  /// The byte that starts the digest binding a record erased from version 1 or 2.
  static let legacyErasurePrefix: UInt8 = 0x03

  /// `SHA-256(0x03 ‖ record without its hash)`: what the `contentErased` record of a record erased
  /// from version 1 or 2 keeps of it (field 9, docs/log-format.md), so that the header and kept
  /// fields left in it — which its own hash no longer covers — stay bound by a record whose hash
  /// does. `record` is the erased form, as stored.
  static func legacyErasureDigest(of record: RawSpan) -> [UInt8] {
    record.withUnsafeBytes { bytes in
      var hasher = SHA256()
      withUnsafeBytes(of: legacyErasurePrefix) { hasher.update(bufferPointer: $0) }
      hasher.update(bufferPointer: UnsafeRawBufferPointer(rebasing: bytes[..<max(0, bytes.count - 32)]))
      return Array(hasher.finalize())
    }
  }

  /// Where the parts of a version 3 record lie.
  struct SealedLayout {
    let header: LogRecordHeader
    let context: Range<Int>?
    /// The offset of the content form byte (just after the kind).
    let formOffset: Int
    let form: ContentForm
    let facts: Range<Int>
    /// The content's bytes; empty once erased.
    let content: Range<Int>
  }

  /// Decodes a version 3 record's header and where its parts lie.
  static func sealedLayout(_ bytes: RawSpan, principals: inout PrincipalCache) throws(StoreError) -> SealedLayout {
    let count = bytes.byteCount
    // The smallest version 3 record: an erased legacy one, with an empty actor and context.
    let minimum = 1 + 8 + 8 + 1 + 2 + 2 + 2 + 1 + 1 + 4 + 32 + 32
    guard count >= minimum else { throw .malformedRecord("\(count) bytes, shorter than the fixed \(minimum)") }
    var offset = 1
    let (position, timestamp, principalCode, identifierRange) = try decodeLead(bytes, &offset, fixedSize: minimum)
    let identifierCount = identifierRange.count
    let contextCount = Int(loadBigEndian(bytes, &offset, as: UInt16.self))
    guard contextCount <= count - minimum - identifierCount else {
      throw .malformedRecord("a caller context of \(contextCount) bytes runs past the end")
    }
    let context = contextCount == 0 ? nil : offset..<(offset + contextCount)
    offset += contextCount
    let kind = loadBigEndian(bytes, &offset, as: UInt16.self)
    let formOffset = offset
    guard let form = ContentForm(rawValue: bytes.unsafeLoad(fromByteOffset: offset, as: UInt8.self)) else {
      throw .malformedRecord("unknown content form \(bytes.unsafeLoad(fromByteOffset: offset, as: UInt8.self))")
    }
    offset += 1
    let fixed: Int
    var formatOrigin: UInt8 = sealedVersion
    switch form {
    case .present: fixed = 16 + 4 + 4
    case .erased: fixed = 32 + 4
    case .erasedLegacy: fixed = 1 + 4
    }
    guard offset + fixed + 64 <= count else { throw .malformedRecord("\(count) bytes, too short for its content form") }
    switch form {
    case .present: offset += 16
    case .erased: offset += 32
    case .erasedLegacy:
      formatOrigin = bytes.unsafeLoad(fromByteOffset: offset, as: UInt8.self)
      guard formatOrigin == 1 || formatOrigin == 2 else {
        throw .malformedRecord("an erased record says it was written in version \(formatOrigin)")
      }
      offset += 1
    }
    let factsCount = Int(loadBigEndian(bytes, &offset, as: UInt32.self))
    let contentCount = form == .present ? Int(loadBigEndian(bytes, &offset, as: UInt32.self)) : 0
    guard factsCount <= maximumPayloadSize, contentCount <= maximumPayloadSize,
      offset + factsCount + contentCount + 64 == count
    else {
      throw .malformedRecord(
        "kept fields of \(factsCount) and content of \(contentCount) bytes do not match the record size (\(count))")
    }
    let facts = offset..<(offset + factsCount)
    let content = facts.upperBound..<(facts.upperBound + contentCount)
    offset = content.upperBound
    let previous = loadHash(bytes, &offset)
    let hash = loadHash(bytes, &offset)
    let principal = try principals.principal(code: principalCode, identifier: bytes.extracting(identifierRange))
    let header = LogRecordHeader(
      formatVersion: sealedVersion, position: LogPosition(position), timestamp: Timestamp(rawValue: timestamp),
      principal: principal, kind: RecordKind(rawValue: kind), previousHash: previous, hash: hash,
      content: form == .present ? .present : form == .erased ? .erased : .erasedUnverifiable)
    return SealedLayout(
      header: header, context: context, formOffset: formOffset, form: form, facts: facts, content: content)
  }

  /// Decodes a version 3 record's header; its payload is the kept fields followed by the content
  /// (which lie side by side), or the kept fields alone once the content is erased.
  static func decodeVersion3(_ bytes: RawSpan, principals: inout PrincipalCache) throws(StoreError) -> DecodedHeader {
    let layout = try sealedLayout(bytes, principals: &principals)
    return DecodedHeader(
      header: layout.header, payload: layout.facts.lowerBound..<layout.content.upperBound, context: layout.context)
  }

  /// The record `bytes` with its content erased: a version 3 record in its erased form (its hash
  /// unchanged), or — for a record written in version 1 or 2 — in the form that keeps its header,
  /// its kept fields and its hash. `nil` when it has no content to erase (a kind without content,
  /// or already erased).
  static func erasing(_ bytes: RawSpan) throws(StoreError) -> [UInt8]? {
    var principals = PrincipalCache()
    let version = bytes.byteCount > 0 ? bytes.unsafeLoad(fromByteOffset: 0, as: UInt8.self) : 0
    if version == sealedVersion {
      let layout = try sealedLayout(bytes, principals: &principals)
      guard layout.form == .present else { return nil }
      return bytes.withUnsafeBytes { source in
        var out = [UInt8](source[0..<layout.formOffset])
        out.append(ContentForm.erased.rawValue)
        let salt = layout.formOffset + 1
        commitment(
          salt: UnsafeRawBufferPointer(rebasing: source[salt..<(salt + 16)]),
          content: UnsafeRawBufferPointer(rebasing: source[layout.content])
        ).withUnsafeBytes { out.append(contentsOf: $0) }
        appendBigEndian(UInt32(layout.facts.count), to: &out)
        out.append(contentsOf: source[layout.facts])
        out.append(contentsOf: source[(source.count - 64)...])
        return out
      }
    }
    let decoded = try decodeHeader(bytes, principals: &principals)
    let header = decoded.header
    guard let contentTags = header.kind.schema?.contentTags, !contentTags.isEmpty else { return nil }
    let payload = Array(copying: bytes.extracting(decoded.payload))
    guard let (factsCount, contentCount) = split(payload, contentTags) else {
      throw .malformedPayload("the record at \(header.position) is not a well-formed field sequence")
    }
    guard contentCount > 0 else { return nil }
    return bytes.withUnsafeBytes { source in
      // Everything up to the kind, with a context length (zero for version 1) before the kind.
      let identifierEnd = 20 + Int(UInt16(source[18]) << 8 | UInt16(source[19]))
      var out = [sealedVersion]
      out.append(contentsOf: source[1..<identifierEnd])
      if let context = decoded.context {
        appendBigEndian(UInt16(context.count), to: &out)
        out.append(contentsOf: source[context])
      } else {
        appendBigEndian(UInt16(0), to: &out)
      }
      appendBigEndian(header.kind.rawValue, to: &out)
      out.append(ContentForm.erasedLegacy.rawValue)
      out.append(header.formatVersion)
      appendBigEndian(UInt32(factsCount), to: &out)
      payload.withUnsafeBytes { payload in
        scanValidated(payload) { span in
          if !contentTags.contains(span.tag) {
            out.append(contentsOf: payload[span.headerStart..<span.range.upperBound])
          }
        }
      }
      out.append(contentsOf: source[(source.count - 64)...])
      return out
    }
  }
}

/// Calls `body` with each field of `payload`, which ``RecordCodec/split(_:_:)`` has found well formed.
private func scanValidated(_ payload: UnsafeRawBufferPointer, _ body: (PayloadSpan) -> Void) {
  do throws(StoreError) {
    try PayloadSpan.scan(payload, 0..<payload.count) { body($0) }
  } catch {
    preconditionFailure("a payload scanned once is well formed: \(error)")
  }
}
