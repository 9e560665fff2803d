internal import LMDB

/// The blocks of one calendar in `range.instances` as a rebuild writes them (``InstanceBlocks``):
/// the parts its items were indexed in, each sorted in key order, merged run by run and packed one
/// block at a time into a small buffer, coded (``InstanceBlockCodec``) and handed on: appended by
/// the writer, or kept by a range worker in ``CodedBlocks``.
struct MergedBlocks: Sendable {
  private let parts: [[InstanceEntry]]
  /// Where each run starts in each part (``InstanceEntry/runs`` + 1 offsets).
  private let runStarts: [[Int]]
  private let calendar: ObjectID
  /// The run being written, and the next entry of each part.
  private var slot = 0
  private var heads: [Int]

  /// Merges `parts` of `calendar` (each sorted, with `runStarts`).
  init(_ parts: [[InstanceEntry]], runStarts: [[Int]], calendar: ObjectID) {
    (self.parts, self.runStarts, self.calendar) = (parts, runStarts, calendar)
    heads = runStarts.map { $0[0] }
  }

  /// Whether every block is written.
  var isDone: Bool { slot >= InstanceEntry.runs }

  /// Appends whole blocks through `cursor`, in key order, until `limit` instances or more are
  /// written or none is left; returns how many were.
  mutating func append(to cursor: inout Cursor, limit: Int) throws(LMDBError) -> Int {
    try append(limit: limit) { (key, value, _) throws(LMDBError) in try cursor.put(value, forKey: key, options: .append)
    }
  }

  /// Hands `body` the key, the coded value and the number of instances of whole blocks, in key
  /// order, until `limit` instances or more are handed on or none is left; returns how many were.
  mutating func append<Failure: Error>(
    limit: Int,
    _ body: (_ key: UnsafeRawBufferPointer, _ value: UnsafeRawBufferPointer, _ count: Int) throws(Failure) -> Void
  ) throws(Failure) -> Int {
    let block = UnsafeMutableRawBufferPointer.allocate(
      byteCount: InstanceBlocks.maxRecords * InstanceBlocks.recordLength, alignment: 8)
    let coded = UnsafeMutableRawBufferPointer.allocate(
      byteCount: InstanceBlocks.maxRecords * InstanceBlockCodec.maxCodedRecordLength, alignment: 8)
    let key = UnsafeMutableRawBufferPointer.allocate(byteCount: InstanceBlocks.blockKeyLength, alignment: 8)
    defer {
      block.deallocate()
      coded.deallocate()
      key.deallocate()
    }
    let prefixLength = InstanceBlocks.blockKeyLength - InstanceBlocks.keyLength
    var written = 0
    let (runs, runStarts) = (InstanceEntry.runs, self.runStarts)
    calendar.store(in: key, at: 0)
    var (slot, heads) = (self.slot, self.heads)
    try Self.withBuffers(parts[...]) { (parts) throws(Failure) in
      var limits = heads
      // After a run, each part's head is where the next run starts in it.
      while slot < runs, written < limit {
        for part in parts.indices { limits[part] = runStarts[part][slot + 1] }
        var left = parts.indices.reduce(0) { $0 + limits[$1] - heads[$1] }
        if left > 0 {
          let run = InstanceEntry.clockAndClass(ofRun: slot)
          key[prefixLength - 2] = run.clock
          key[prefixLength - 1] = run.durationClass
        }
        var count = 0
        while left > 0 {
          var best = -1
          for part in parts.indices where heads[part] < limits[part] {
            if best < 0 || parts[part][heads[part]] < parts[best][heads[best]] { best = part }
          }
          let entry = parts[best][heads[best]]
          heads[best] += 1
          left -= 1
          let offset = count * InstanceBlocks.recordLength
          let isCut = InstanceBlocks.write(
            start: entry.start, itemHigh: entry.itemHigh, itemLow: entry.itemLow, occurrence: entry.occurrence,
            end: entry.end, flags: entry.flags,
            to: UnsafeMutableRawBufferPointer(rebasing: block[offset..<(offset + InstanceBlocks.recordLength)]))
          count += 1
          guard InstanceBlocks.endsBlock(count: count, lastIsCut: isCut) || left == 0 else { continue }
          UnsafeMutableRawBufferPointer(rebasing: key[prefixLength...]).copyMemory(
            from: UnsafeRawBufferPointer(rebasing: block[offset..<(offset + InstanceBlocks.keyLength)]))
          let length = InstanceBlockCodec.encode(
            UnsafeRawBufferPointer(rebasing: block[..<(offset + InstanceBlocks.recordLength)]), into: coded)
          try body(UnsafeRawBufferPointer(key), UnsafeRawBufferPointer(rebasing: coded[..<length]), count)
          written += count
          count = 0
          // A long run is cut between blocks.
          if written >= limit && left > 0 { return }
        }
        slot += 1
      }
    }
    (self.slot, self.heads) = (slot, heads)
    return written
  }

  /// Calls `body` with a view of every part's entries.
  private static func withBuffers<Failure: Error>(
    _ parts: ArraySlice<[InstanceEntry]>, _ collected: [UnsafeBufferPointer<InstanceEntry>] = [],
    _ body: ([UnsafeBufferPointer<InstanceEntry>]) throws(Failure) -> Void
  ) throws(Failure) {
    guard let first = parts.first else { return try body(collected) }
    let failure: Failure? = first.withUnsafeBufferPointer { buffer in
      do throws(Failure) {
        try withBuffers(parts.dropFirst(), collected + [buffer], body)
        return nil
      } catch {
        return error
      }
    }
    if let failure { throw failure }
  }
}
