/// Blocks of `range.instances` packed ahead of the write (``InstanceBlocks``), so that a rebuild
/// packs the runs on every core and its single writer only appends: the keys one after the other
/// (``InstanceBlocks/blockKeyLength`` bytes each) and the values one after the other.
struct EncodedBlocks: Sendable {
  private(set) var keys: [UInt8] = []
  private(set) var values: [UInt8] = []
  /// Where each value ends in ``values``.
  private(set) var ends: [Int] = []

  /// How many blocks there are.
  var count: Int { ends.count }

  /// The key and value of block `index`.
  func block(_ index: Int) -> (key: ArraySlice<UInt8>, value: ArraySlice<UInt8>) {
    let keyStart = index * InstanceBlocks.blockKeyLength
    let valueStart = index == 0 ? 0 : ends[index - 1]
    return (keys[keyStart..<(keyStart + InstanceBlocks.blockKeyLength)], values[valueStart..<ends[index]])
  }

  /// Packs the runs `slots` (``InstanceEntry/runSlot(_:)``) of `parts`, each sorted in key order
  /// with `runStarts` where its runs start, merging the parts run by run; `calendars` are the
  /// calendars by number.
  init(merging parts: [[InstanceEntry]], runStarts: [[Int]], slots: Range<Int>, calendars: [ObjectID]) {
    let total = parts.indices.reduce(0) { $0 + runStarts[$1][slots.upperBound] - runStarts[$1][slots.lowerBound] }
    values.reserveCapacity(total * InstanceBlocks.recordLength)
    keys.reserveCapacity((total / 16 + slots.count) * InstanceBlocks.blockKeyLength)
    ends.reserveCapacity(total / 16 + slots.count)
    var record = [UInt8](repeating: 0, count: InstanceBlocks.recordLength)
    for slot in slots {
      var heads = parts.indices.map { runStarts[$0][slot] }
      let limits = parts.indices.map { runStarts[$0][slot + 1] }
      var left = zip(heads, limits).reduce(0) { $0 + $1.1 - $1.0 }
      guard left > 0 else { continue }
      let run = InstanceEntry.run(ofSlot: slot)
      let prefix = calendars[run.calendar].bytes + [run.clock, run.durationClass]
      var inBlock = 0
      while left > 0 {
        var best = -1
        for part in parts.indices where heads[part] < limits[part] {
          if best < 0 || parts[part][heads[part]] < parts[best][heads[best]] { best = part }
        }
        let entry = parts[best][heads[best]]
        heads[best] += 1
        left -= 1
        let isCut = record.withUnsafeMutableBytes { bytes in
          InstanceBlocks.write(
            start: entry.start, itemHigh: entry.itemHigh, itemLow: entry.itemLow, occurrence: entry.occurrence,
            end: entry.end, flags: entry.flags, to: bytes)
        }
        values.append(contentsOf: record)
        inBlock += 1
        if InstanceBlocks.endsBlock(count: inBlock, lastIsCut: isCut)
          || left == 0
        {
          ends.append(values.count)
          keys.append(contentsOf: prefix)
          keys.append(contentsOf: record[..<InstanceBlocks.keyLength])
          inBlock = 0
        }
      }
    }
  }
}
