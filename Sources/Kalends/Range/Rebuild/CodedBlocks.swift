internal import LMDB

/// The blocks of one calendar in `range.instances`, merged and coded by the range worker that
/// indexed the calendar (``MergedBlocks``), so that the writer, which appends every database of a
/// rebuild in one thread, only copies them into LMDB: each block's key and value, one after the
/// other in one buffer, about 24 bytes an instance where the sorted instances take 48.
struct CodedBlocks: Sendable {
  /// Every block's key (``InstanceBlocks/blockKeyLength`` bytes) and value, one after the other.
  private(set) var bytes: [UInt8]
  /// Where each block's value ends in ``bytes``, and how many instances it holds.
  private var blocks: [(end: Int, count: Int)] = []
  /// The blocks appended so far.
  private var written = 0

  /// The blocks of `merged`, which holds `instances`, coded into `buffer` (emptied first; its room
  /// is kept, and made enough for most calendars).
  init(_ merged: MergedBlocks, instances: Int, into buffer: [UInt8]) {
    var (merged, bytes) = (merged, buffer)
    bytes.removeAll(keepingCapacity: true)
    // About 24 bytes an instance, and a key of 50 for every 16 or so.
    if bytes.capacity < instances * 28 { HugePages.reserve(&bytes, capacity: instances * 32) }
    var blocks: [(end: Int, count: Int)] = []
    blocks.reserveCapacity(instances / 8)
    _ = merged.append(limit: .max) { key, value, count in
      // Typed as bytes, each copy is one `memcpy`.
      bytes.append(contentsOf: key.assumingMemoryBound(to: UInt8.self))
      bytes.append(contentsOf: value.assumingMemoryBound(to: UInt8.self))
      blocks.append((bytes.count, count))
    }
    (self.bytes, self.blocks) = (bytes, blocks)
  }

  /// Whether every block is appended.
  var isDone: Bool { written == blocks.count }

  /// Appends whole blocks through `cursor`, in key order, until `limit` instances or more are
  /// appended or none is left; returns how many were.
  mutating func append(to cursor: inout Cursor, limit: Int) throws(LMDBError) -> Int {
    var appended = 0
    var start = written == 0 ? 0 : blocks[written - 1].end
    let keyLength = InstanceBlocks.blockKeyLength
    let failure: LMDBError? = bytes.withUnsafeBytes { bytes in
      do throws(LMDBError) {
        while written < blocks.count, appended < limit {
          let (end, count) = blocks[written]
          try cursor.put(
            UnsafeRawBufferPointer(rebasing: bytes[(start + keyLength)..<end]),
            forKey: UnsafeRawBufferPointer(rebasing: bytes[start..<(start + keyLength)]), options: .append)
          (start, written, appended) = (end, written + 1, appended + count)
        }
        return nil
      } catch {
        return error
      }
    }
    if let failure { throw failure }
    return appended
  }
}
