/// How a block of `range.instances` is stored (docs/projections.md). ``InstanceBlocks`` lays out
/// and edits blocks as fixed records of ``InstanceBlocks/recordLength`` bytes, the form the block
/// keys take; a block is stored coded against its own records, about 24 bytes each instead of 41:
///
/// `widths (1) ‖ flags (1) ‖ start ‖ item (16) ‖ occurrence − start ‖ end − start`
///
/// where the first record's start is the start itself and each later record's the difference from
/// the one before (records are in start order), the first start and the two differences from the
/// start are zigzag-coded (small negative numbers stay small), and each of the three integers is
/// stored little-endian in 1, 2, 4 or 8 bytes, its width given by two bits of the first byte
/// (start, occurrence, end from the lowest bits up). A reader knows a record's length from its
/// first byte and loads each integer from one word: no branch per byte. Differences wrap, so every
/// `Int64` round-trips. A fixed record is `start (8) ‖ item (16) ‖ occurrence (8) ‖ end (8) ‖
/// flags (1)`, times big-endian with the sign bit flipped.
package enum InstanceBlockCodec {
  /// The most bytes one record takes coded: the two leading bytes, three 8-byte integers and the item.
  package static let maxCodedRecordLength = 2 + 8 + 16 + 8 + 8

  /// One instance of a block.
  struct Record: Sendable {
    var start: Int64
    var item: ObjectID
    var occurrence: Int64
    var end: Int64
    var flags: UInt8
  }

  // MARK: Coding

  /// Codes the whole fixed records of `records` (in key order) into `output`, which holds at least
  /// ``maxCodedRecordLength`` bytes per record; returns how many bytes it wrote.
  package static func encode(_ records: UnsafeRawBufferPointer, into output: UnsafeMutableRawBufferPointer) -> Int {
    var offset = 0
    var previous: Int64? = nil
    var record = 0
    while record + InstanceBlocks.recordLength <= records.count {
      let start = RangeKey.time(in: records, at: record)
      let first = previous.map { UInt64(bitPattern: start &- $0) } ?? zigzag(start)
      previous = start
      let occurrence = zigzag(RangeKey.time(in: records, at: record + InstanceBlocks.occurrenceOffset) &- start)
      let end = zigzag(RangeKey.time(in: records, at: record + InstanceBlocks.endOffset) &- start)
      let widths = (width(first), width(occurrence), width(end))
      output[offset] = UInt8(widths.0 | widths.1 << 2 | widths.2 << 4)
      output[offset + 1] = records[record + InstanceBlocks.flagsOffset]
      offset = put(first, code: widths.0, output, offset + 2)
      output.baseAddress!.advanced(by: offset).copyMemory(
        from: records.baseAddress! + record + InstanceBlocks.itemOffset, byteCount: 16)
      offset = put(occurrence, code: widths.1, output, offset + 16)
      offset = put(end, code: widths.2, output, offset)
      record += InstanceBlocks.recordLength
    }
    return offset
  }

  /// The fixed records of the coded `block`; a damaged block is read as far as its whole records
  /// go. The records are counted first and the array made at its size, without filling it first:
  /// a stretch of blocks is decoded on every edit of an item in it.
  package static func decoded(_ block: UnsafeRawBufferPointer) -> [UInt8] {
    let length = count(block) * InstanceBlocks.recordLength
    return [UInt8](unsafeUninitializedCapacity: length) { buffer, initialized in
      var reader = Reader(block)
      while let record = reader.next() {
        _ = InstanceBlocks.write(
          start: record.start, itemHigh: record.item.high, itemLow: record.item.low,
          occurrence: record.occurrence, end: record.end, flags: record.flags,
          to: UnsafeMutableRawBufferPointer(
            start: buffer.baseAddress! + initialized, count: InstanceBlocks.recordLength))
        initialized += InstanceBlocks.recordLength
      }
    }
  }

  /// How many whole records the coded `block` holds.
  package static func count(_ block: UnsafeRawBufferPointer) -> Int {
    var reader = Reader(block)
    var count = 0
    while reader.next() != nil { count += 1 }
    return count
  }

  /// Reads the records of a coded block one at a time, in order. A damaged block ends at its last
  /// whole record: nothing is read beyond the block.
  struct Reader {
    private let block: UnsafeRawBufferPointer
    private var offset = 0
    /// The last record's start; the first record's is coded whole.
    private var previous: Int64 = 0
    private var isFirst = true

    init(_ block: UnsafeRawBufferPointer) { self.block = block }

    /// The next record, or `nil` after the last one.
    @inline(__always)
    mutating func next() -> Record? {
      guard offset + 2 <= block.count else { return nil }
      let widths = Int(block[offset])
      let (startWidth, occurrenceWidth, endWidth) = (1 << (widths & 3), 1 << (widths >> 2 & 3), 1 << (widths >> 4 & 3))
      let length = 2 + startWidth + 16 + occurrenceWidth + endWidth
      guard length <= block.count - offset else { return nil }
      let flags = block[offset + 1]
      var at = offset + 2
      let first = InstanceBlockCodec.get(block, at, startWidth)
      at += startWidth
      let item = ObjectID(block, at: at)
      at += 16
      let occurrence = InstanceBlockCodec.get(block, at, occurrenceWidth)
      let end = InstanceBlockCodec.get(block, at + occurrenceWidth, endWidth)
      let start = isFirst ? unzigzag(first) : previous &+ Int64(bitPattern: first)
      (offset, previous, isFirst) = (offset + length, start, false)
      return Record(
        start: start, item: item, occurrence: start &+ unzigzag(occurrence), end: start &+ unzigzag(end),
        flags: flags)
    }
  }

  // MARK: Integers

  @inline(__always)
  private static func zigzag(_ value: Int64) -> UInt64 { UInt64(bitPattern: (value << 1) ^ (value >> 63)) }

  @inline(__always)
  private static func unzigzag(_ value: UInt64) -> Int64 {
    Int64(bitPattern: value >> 1) ^ -Int64(bitPattern: value & 1)
  }

  /// The width code of `value`: 0, 1, 2 or 3 for 1, 2, 4 or 8 bytes.
  @inline(__always)
  private static func width(_ value: UInt64) -> Int {
    value < 1 << 8 ? 0 : value < 1 << 16 ? 1 : value < 1 << 32 ? 2 : 3
  }

  /// Writes `value` little-endian in the `1 << code` bytes at `offset`; returns the offset after it.
  @inline(__always)
  private static func put(_ value: UInt64, code: Int, _ output: UnsafeMutableRawBufferPointer, _ offset: Int) -> Int {
    let count = 1 << code
    for index in 0..<count { output[offset + index] = UInt8(truncatingIfNeeded: value >> (8 * index)) }
    return offset + count
  }

  /// The little-endian integer in the `width` bytes at `offset` of `block` (inside it): one load,
  /// masked to its width, when a whole word fits before the block's end.
  @inline(__always)
  private static func get(_ block: UnsafeRawBufferPointer, _ offset: Int, _ width: Int) -> UInt64 {
    if offset + 8 <= block.count {
      let word = UInt64(littleEndian: block.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
      return word & (UInt64.max >> (64 - 8 * width))
    }
    var value: UInt64 = 0
    for index in 0..<width { value |= UInt64(block[offset + index]) << (8 * index) }
    return value
  }
}
