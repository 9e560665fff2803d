/// How a block of `range.instances` is stored (docs/projections.md). ``InstanceBlocks`` lays out
/// and edits blocks as fixed records of ``InstanceBlocks/recordLength`` bytes, the form the block
/// keys take; a block is stored coded against its own records, about 23 bytes each instead of 41:
///
/// `start ‖ item (16) ‖ occurrence − start ‖ end − start ‖ flags (1)`
///
/// where the first record's start is a signed variable-length integer (zigzag LEB128) and each later
/// record's is the unsigned difference from the one before (records are in start order); the two
/// differences from the start are signed. Differences wrap, so every `Int64` round-trips. A fixed
/// record is `start (8) ‖ item (16) ‖ occurrence (8) ‖ end (8) ‖ flags (1)`, times big-endian with
/// the sign bit flipped.
package enum InstanceBlockCodec {
  /// The most bytes one record takes coded: two 10-byte integers and a third, the item, the flags.
  package static let maxCodedRecordLength = 10 + 16 + 10 + 10 + 1

  /// One instance of a block.
  struct Record: Equatable, Sendable {
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
      let start = time(records, record)
      if let previous {
        offset = put(UInt64(bitPattern: start &- previous), output, offset)
      } else {
        offset = put(zigzag(start), output, offset)
      }
      previous = start
      output.baseAddress!.advanced(by: offset).copyMemory(
        from: records.baseAddress! + record + InstanceBlocks.itemOffset, byteCount: 16)
      offset += 16
      offset = put(zigzag(time(records, record + InstanceBlocks.occurrenceOffset) &- start), output, offset)
      offset = put(zigzag(time(records, record + InstanceBlocks.endOffset) &- start), output, offset)
      output[offset] = records[record + InstanceBlocks.flagsOffset]
      offset += 1
      record += InstanceBlocks.recordLength
    }
    return offset
  }

  /// Appends the fixed records of the coded `block` to `records`; a damaged block is read as far as
  /// its whole records go.
  package static func decode(_ block: UnsafeRawBufferPointer, appendingTo records: inout [UInt8]) {
    var reader = Reader(block)
    while let record = reader.next() {
      let offset = records.count
      records.append(contentsOf: repeatElement(0, count: InstanceBlocks.recordLength))
      records.withUnsafeMutableBytes { bytes in
        _ = InstanceBlocks.write(
          start: record.start, itemHigh: record.item.high, itemLow: record.item.low,
          occurrence: record.occurrence, end: record.end, flags: record.flags,
          to: UnsafeMutableRawBufferPointer(rebasing: bytes[offset...]))
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
    private var previous: Int64? = nil

    init(_ block: UnsafeRawBufferPointer) { self.block = block }

    /// The next record, or `nil` after the last one.
    @inline(__always)
    mutating func next() -> Record? {
      var at = offset
      guard let first = InstanceBlockCodec.get(block, &at) else { return nil }
      let start = previous.map { $0 &+ Int64(bitPattern: first) } ?? unzigzag(first)
      guard at + 16 <= block.count else { return nil }
      let item = ObjectID(block, at: at)
      at += 16
      guard let occurrence = InstanceBlockCodec.get(block, &at), let end = InstanceBlockCodec.get(block, &at),
        at < block.count
      else { return nil }
      let flags = block[at]
      offset = at + 1
      previous = start
      return Record(
        start: start, item: item, occurrence: start &+ unzigzag(occurrence),
        end: start &+ unzigzag(end), flags: flags)
    }
  }

  // MARK: Integers

  /// The time at `offset` of a fixed record (sortable, ``RangeKey/sortable(_:)``).
  @inline(__always)
  private static func time(_ bytes: UnsafeRawBufferPointer, _ offset: Int) -> Int64 {
    Int64(bitPattern: UInt64(bigEndian: bytes.loadUnaligned(fromByteOffset: offset, as: UInt64.self)) ^ (1 << 63))
  }

  @inline(__always)
  private static func zigzag(_ value: Int64) -> UInt64 { UInt64(bitPattern: (value << 1) ^ (value >> 63)) }

  @inline(__always)
  private static func unzigzag(_ value: UInt64) -> Int64 {
    Int64(bitPattern: value >> 1) ^ -Int64(bitPattern: value & 1)
  }

  /// Writes `value` as LEB128 at `offset`; returns the offset after it.
  @inline(__always)
  private static func put(_ value: UInt64, _ output: UnsafeMutableRawBufferPointer, _ offset: Int) -> Int {
    var (value, offset) = (value, offset)
    while value >= 0x80 {
      output[offset] = UInt8(truncatingIfNeeded: value) | 0x80
      value >>= 7
      offset += 1
    }
    output[offset] = UInt8(value)
    return offset + 1
  }

  /// Reads a LEB128 integer at `offset`, moving it past; `nil` when the block ends first or the
  /// integer is longer than 10 bytes.
  @inline(__always)
  private static func get(_ block: UnsafeRawBufferPointer, _ offset: inout Int) -> UInt64? {
    var (value, shift, at) = (UInt64(0), UInt64(0), offset)
    while at < block.count, shift < 64 {
      let byte = block[at]
      at += 1
      value |= UInt64(byte & 0x7F) << shift
      if byte < 0x80 {
        offset = at
        return value
      }
      shift += 7
    }
    return nil
  }
}
