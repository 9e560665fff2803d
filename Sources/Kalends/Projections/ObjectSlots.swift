/// The slot numbers of the objects a bulk loader has met, by kind and identifier: an
/// open-addressing hash table with linear probing, for the one lookup every record of a rebuild
/// makes.
///
/// `Dictionary` hashes each key with SipHash through `Hasher`, which was a fifth of reading the log
/// in a rebuild. Identifiers are mostly random, so a multiply-and-fold of their 128 bits, mixed with
/// a per-table random seed (so that identifiers chosen to collide are not known in advance), spreads
/// them as well. Keys are never removed: a loader marks a removed object in its own arrays.
package struct ObjectSlots {
  private struct Entry {
    var high: UInt64
    var low: UInt64
    /// The slot plus one; 0 for an empty entry.
    var slot: UInt32
    var kind: UInt8
  }

  private var entries: [Entry]
  private var mask: Int
  private let seed: UInt64
  /// How many keys the table holds.
  package private(set) var count = 0

  /// An empty table with room for `capacity` keys before it grows.
  package init(capacity: Int = 0) {
    let size = Self.size(for: capacity)
    entries = Array(repeating: Entry(high: 0, low: 0, slot: 0, kind: 0), count: size)
    mask = size - 1
    seed = UInt64.random(in: 0...UInt64.max) | 1
  }

  /// A power of two at least 1.5 times `capacity` (at least 16).
  private static func size(for capacity: Int) -> Int {
    var size = 16
    while size < capacity + capacity / 2 { size <<= 1 }
    return size
  }

  private func home(_ kind: UInt8, _ high: UInt64, _ low: UInt64) -> Int {
    let mixed = (high ^ seed).multipliedFullWidth(by: low ^ (seed &* 0x9E37_79B9_7F4A_7C15 | 1))
    return Int(truncatingIfNeeded: (mixed.high ^ mixed.low) &+ UInt64(kind) &* 0xA076_1D64_78BD_642F) & mask
  }

  /// The slot of `id` of `kind`, if it has one.
  package func slot(of kind: UInt8, _ id: ObjectID) -> Int? {
    var index = home(kind, id.high, id.low)
    while true {
      let entry = entries[index]
      if entry.slot == 0 { return nil }
      if entry.low == id.low && entry.high == id.high && entry.kind == kind { return Int(entry.slot) - 1 }
      index = (index + 1) & mask
    }
  }

  /// The slot of `id` of `kind`, after giving it `next` when it has none; whether it was given.
  /// Slots are below `UInt32.max`.
  package mutating func slot(for kind: UInt8, _ id: ObjectID, next: Int) -> (slot: Int, isNew: Bool) {
    if count + 1 > (mask + 1) / 3 * 2 { grow() }
    var index = home(kind, id.high, id.low)
    let found: Int? = entries.withUnsafeMutableBufferPointer { entries in
      while true {
        let entry = entries[index]
        if entry.slot == 0 {
          entries[index] = Entry(high: id.high, low: id.low, slot: UInt32(next + 1), kind: kind)
          return nil
        }
        if entry.low == id.low && entry.high == id.high && entry.kind == kind { return Int(entry.slot) - 1 }
        index = (index + 1) & mask
      }
    }
    if let found { return (found, false) }
    count += 1
    return (next, true)
  }

  /// Doubles the table.
  private mutating func grow() {
    let old = entries
    entries = Array(repeating: Entry(high: 0, low: 0, slot: 0, kind: 0), count: old.count * 2)
    mask = entries.count - 1
    for entry in old where entry.slot != 0 {
      var index = home(entry.kind, entry.high, entry.low)
      while entries[index].slot != 0 { index = (index + 1) & mask }
      entries[index] = entry
    }
  }
}
