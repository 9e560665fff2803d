internal import Foundation
internal import LMDB

/// How `range.instances` packs the instances of a run (calendar, clock, duration class) into
/// blocks (docs/projections.md): an entry holds up to ``maxRecords`` instance records in key order
/// and is keyed by the run and its last record's key, so a seek at a time lands on the block holding
/// the first instance at or after it, and a query reads tens of instances per cursor step.
///
/// Where blocks end depends only on the instances, never on the order they were written in, so that
/// a rebuild leaves the bytes record-by-record application leaves: an instance whose item and
/// occurrence hash to 0 modulo ``cutModulus`` ends its block (a *cut*), and a stretch between cuts is
/// split every ``maxRecords`` records from its start; the last block of a run ends at its last
/// instance. Adding or removing an instance rewrites only the blocks of its stretch.
enum InstanceBlocks {
  /// A record: `start (8) ‖ item (16) ‖ occurrence (8) ‖ end (8) ‖ flags (1)`, times sortable
  /// (``RangeKey/append(_:to:)``); its first ``keyLength`` bytes are its key within the run.
  static let recordLength = 41
  static let keyLength = 32
  static let itemOffset = 8
  static let occurrenceOffset = 24
  static let endOffset = 32
  static let flagsOffset = 40
  /// At most this many records per block: a block then fits a leaf node of a 4 KiB page (LMDB
  /// moves larger values to overflow pages, which every insert would rewrite whole).
  static let maxRecords = 48
  /// One instance in this many ends a block, on average.
  static let cutModulus: UInt64 = 32
  /// `run (18) ‖ the last record's key (32)`.
  static let blockKeyLength = 18 + keyLength

  /// Whether the record whose bytes `itemOffset..<keyLength` (item, occurrence) load as the three
  /// native words `a`, `b`, `c` ends its block. A mix of all of them, so that any change of item or
  /// occurrence moves the cut.
  @inline(__always)
  static func isCut(_ a: UInt64, _ b: UInt64, _ c: UInt64) -> Bool {
    var x = (a &* 0x9E37_79B9_7F4A_7C15) ^ (b &* 0xC2B2_AE3D_27D4_EB4F) ^ c
    x ^= x >> 30
    x &*= 0xBF58_476D_1CE4_E5B9
    x ^= x >> 27
    x &*= 0x94D0_49BB_1331_11EB
    x ^= x >> 31
    return x % cutModulus == 0
  }

  /// Whether the record at byte `offset` of `bytes` ends its block.
  @inline(__always)
  static func isCut(_ bytes: UnsafeRawBufferPointer, record offset: Int) -> Bool {
    isCut(
      bytes.loadUnaligned(fromByteOffset: offset + itemOffset, as: UInt64.self),
      bytes.loadUnaligned(fromByteOffset: offset + itemOffset + 8, as: UInt64.self),
      bytes.loadUnaligned(fromByteOffset: offset + occurrenceOffset, as: UInt64.self))
  }

  /// Whether a block of `count` records whose last record `isCut` ends there; a run's last block
  /// also ends at its last record. The one rule of inline edits and bulk loads.
  @inline(__always)
  static func endsBlock(count: Int, lastIsCut: Bool) -> Bool { lastIsCut || count == maxRecords }

  /// The record of one instance.
  static func record(
    start: Int64, item: ObjectID, occurrence: Int64, end: Int64, flags: UInt8
  ) -> [UInt8] {
    var record = [UInt8](repeating: 0, count: recordLength)
    record.withUnsafeMutableBytes { bytes in
      _ = write(
        start: start, itemHigh: item.high, itemLow: item.low, occurrence: occurrence, end: end, flags: flags, to: bytes)
    }
    return record
  }

  /// Writes the record of one instance into the first ``recordLength`` bytes of `bytes`; returns
  /// whether it ends its block (``isCut(_:_:_:)``).
  @inline(__always)
  static func write(
    start: Int64, itemHigh: UInt64, itemLow: UInt64, occurrence: Int64, end: Int64, flags: UInt8,
    to bytes: UnsafeMutableRawBufferPointer
  ) -> Bool {
    let (high, low, stored) = (itemHigh.bigEndian, itemLow.bigEndian, RangeKey.sortable(occurrence))
    bytes.storeBytes(of: RangeKey.sortable(start), toByteOffset: 0, as: UInt64.self)
    bytes.storeBytes(of: high, toByteOffset: itemOffset, as: UInt64.self)
    bytes.storeBytes(of: low, toByteOffset: itemOffset + 8, as: UInt64.self)
    bytes.storeBytes(of: stored, toByteOffset: occurrenceOffset, as: UInt64.self)
    bytes.storeBytes(of: RangeKey.sortable(end), toByteOffset: endOffset, as: UInt64.self)
    bytes[flagsOffset] = flags
    return isCut(high, low, stored)
  }

  /// Where the blocks end (byte offsets into `records`) that `records` splits into: whole records
  /// in key order, from the start of a stretch (a run's first instance, or the one after a cut).
  static func blockEnds(_ records: UnsafeRawBufferPointer) -> [Int] {
    var ends: [Int] = []
    var start = 0
    var offset = 0
    while offset < records.count {
      let next = offset + recordLength
      let count = (next - start) / recordLength
      if endsBlock(count: count, lastIsCut: isCut(records, record: offset)) || next == records.count {
        ends.append(next)
        start = next
      }
      offset = next
    }
    return ends
  }

  /// Adds `record` to `run` (replacing the record with its key, if any) or, with `removing`,
  /// removes the record with its key; rewrites the blocks of the stretch it falls in.
  static func edit(
    _ record: [UInt8], in run: [UInt8], removing: Bool, _ database: Database, _ txn: inout WriteTransaction
  ) throws {
    var target = run
    target.append(contentsOf: record[..<keyLength])
    var stretch = Stretch(target: target, runLength: run.count, removing: removing)
    try txn.withCursor(on: database) { try stretch.read(&$0) }
    // The first record at or after the key.
    var index = 0
    let present = stretch.records.withUnsafeBytes { bytes in
      record.withUnsafeBytes { key in
        let key = UnsafeRawBufferPointer(rebasing: key[..<keyLength])
        while index < bytes.count {
          let order = memcmp(bytes.baseAddress! + index, key.baseAddress!, keyLength)
          if order >= 0 { return order == 0 }
          index += recordLength
        }
        return false
      }
    }
    if removing {
      guard present else { return }
      stretch.records.removeSubrange(index..<index + recordLength)
    } else if present {
      stretch.records.replaceSubrange(index..<index + recordLength, with: record)
    } else {
      stretch.records.insert(contentsOf: record, at: index)
    }
    let records = stretch.records
    let ends = records.withUnsafeBytes { blockEnds($0) }
    // Block keys: the run, then each block's last record's key.
    var keys: [[UInt8]] = []
    keys.reserveCapacity(ends.count)
    for end in ends { keys.append(run + records[(end - recordLength)..<(end - recordLength + keyLength)]) }
    for key in stretch.keys where !keys.contains(key) { _ = try txn.delete(key, in: database) }
    var start = 0
    var coded = [UInt8](repeating: 0, count: maxRecords * InstanceBlockCodec.maxCodedRecordLength)
    for (key, end) in zip(keys, ends) {
      let length = records.withUnsafeBytes { records in
        coded.withUnsafeMutableBytes {
          InstanceBlockCodec.encode(UnsafeRawBufferPointer(rebasing: records[start..<end]), into: $0)
        }
      }
      try txn.put(coded[..<length], forKey: key, in: database)
      start = end
    }
  }

  /// The blocks of the stretch an edit at one key falls in.
  private struct Stretch {
    /// The run's prefix and the edited record's key.
    let target: [UInt8]
    let runLength: Int
    let removing: Bool
    /// The blocks' keys, and their records one after the other.
    var keys: [[UInt8]] = []
    var records: [UInt8] = []

    init(target: [UInt8], runLength: Int, removing: Bool) {
      (self.target, self.runLength, self.removing) = (target, runLength, removing)
      records.reserveCapacity(2 * maxRecords * recordLength)
    }

    private func inRun(_ key: RawSpan) -> Bool {
      key.byteCount == blockKeyLength
        && key.withUnsafeBytes { key in
          target.withUnsafeBytes { memcmp(key.baseAddress!, $0.baseAddress!, runLength) == 0 }
        }
    }

    /// Whether the stretch goes on after the block keyed `key` (its last record's key follows the
    /// run's prefix): it does not end at a cut, or `removing` takes its cut away.
    private func goesOn(_ key: RawSpan) -> Bool {
      key.withUnsafeBytes { bytes in
        guard isCut(bytes, record: runLength) else { return true }
        return removing
          && target.withUnsafeBytes {
            memcmp(bytes.baseAddress! + runLength, $0.baseAddress! + runLength, keyLength) == 0
          }
      }
    }

    /// The fixed records of a stored block.
    private func decoded(_ block: RawSpan) -> [UInt8] {
      block.withUnsafeBytes { InstanceBlockCodec.decoded($0) }
    }

    /// Reads the blocks from the start of the stretch holding the target to its end: the block
    /// holding it, back from there while the blocks before do not end at a cut, and forward while
    /// the stretch goes on.
    mutating func read(_ cursor: inout Cursor) throws {
      let found = try cursor.seek(atLeast: target)
      var held: (key: [UInt8], value: [UInt8])? = nil
      var forward = false
      if found {
        try cursor.withCurrent { key, value in
          guard inRun(key) else { return }
          held = (Array(copying: key), decoded(value))
          forward = goesOn(key)
        }
      }
      var before: [(key: [UInt8], value: [UInt8])] = []
      var moved = try found ? cursor.previous() : cursor.last()
      while moved {
        let block = try cursor.withCurrent { key, value -> (key: [UInt8], value: [UInt8])? in
          // Before the target, a block's last key is below it: the stretch goes on unless it is a cut.
          guard inRun(key), goesOn(key) else { return nil }
          return (Array(copying: key), decoded(value))
        }
        guard let block else { break }
        before.append(block)
        moved = try cursor.previous()
      }
      for block in before.reversed() {
        keys.append(block.key)
        records += block.value
      }
      guard let held else { return }
      keys.append(held.key)
      records += held.value
      guard forward, try cursor.seek(atLeast: target) else { return }
      while forward, try cursor.next() {
        try cursor.withCurrent { key, value in
          forward = false
          guard inRun(key) else { return }
          keys.append(Array(copying: key))
          records += decoded(value)
          forward = goesOn(key)
        }
      }
    }
  }

  /// The instances held in `range.instances` (each entry a coded block of records).
  static func count(in database: Database, _ txn: borrowing ReadTransaction) throws -> Int {
    var total = 0
    try txn.withCursor(on: database) { cursor in
      guard try cursor.first() else { return }
      try cursor.scanForward { _, value in
        total += value.withUnsafeBytes { InstanceBlockCodec.count($0) }
        return .continue
      }
    }
    return total
  }
}
