internal import CPrefetch
internal import Platform

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
    var slot: UInt32
    var kind: UInt8
  }

  /// The table: a byte per entry (0: empty; else 0x80 and seven bits of the key's hash), zeroed by
  /// `calloc`, and the entries, written only when a key is inserted. A probe reads the bytes and
  /// only the entries whose byte matches, so a table sized for every record of a log of few objects
  /// (ten million privacy records, say) touches few pages of its entries, and a page of entries is
  /// first touched by a write (a read of untouched zeroed memory maps a page that the write then
  /// replaces: two faults instead of one).
  private final class Storage {
    let tags: UnsafeMutablePointer<UInt8>
    let entries: UnsafeMutablePointer<Entry>
    let size: Int

    init(size: Int) {
      self.size = size
      guard let memory = calloc(size, 1) else { fatalError("out of memory") }
      tags = memory.bindMemory(to: UInt8.self, capacity: size)
      entries = UnsafeMutablePointer<Entry>.allocate(capacity: size)
      HugePages.advise(UnsafeMutableBufferPointer(start: entries, count: size))
    }

    func copy() -> Storage {
      let copy = Storage(size: size)
      copy.tags.update(from: tags, count: size)
      for index in 0..<size where tags[index] != 0 { copy.entries[index] = entries[index] }
      return copy
    }

    deinit {
      free(tags)
      entries.deallocate()
    }
  }

  private var storage: Storage
  private let seed: UInt64
  /// How many keys the table holds.
  package private(set) var count = 0

  /// An empty table with room for `capacity` keys before it grows.
  package init(capacity: Int = 0) {
    storage = Storage(size: Self.size(for: capacity))
    seed = UInt64.random(in: 0...UInt64.max) | 1
  }

  /// A power of two at least 1.5 times `capacity` (at least 16).
  private static func size(for capacity: Int) -> Int {
    var size = 16
    while size < capacity + capacity / 2 { size <<= 1 }
    return size
  }

  /// The key's hash: its home is the low bits, its tag the top seven.
  private func hash(_ kind: UInt8, _ high: UInt64, _ low: UInt64) -> UInt64 {
    let mixed = (high ^ seed).multipliedFullWidth(by: low ^ (seed &* 0x9E37_79B9_7F4A_7C15 | 1))
    return (mixed.high ^ mixed.low) &+ UInt64(kind) &* 0xA076_1D64_78BD_642F
  }

  private static func tag(_ hash: UInt64) -> UInt8 { UInt8(truncatingIfNeeded: hash >> 57) | 0x80 }

  /// Where `id` of `kind` is, or the empty entry where it would go.
  private func find(_ kind: UInt8, _ id: ObjectID) -> (index: Int, tag: UInt8, found: Bool) {
    let (tags, entries, mask) = (storage.tags, storage.entries, storage.size - 1)
    let hash = hash(kind, id.high, id.low)
    let tag = Self.tag(hash)
    var index = Int(truncatingIfNeeded: hash) & mask
    while true {
      let stored = tags[index]
      if stored == 0 { return (index, tag, false) }
      if stored == tag {
        let entry = entries[index]
        if entry.low == id.low && entry.high == id.high && entry.kind == kind { return (index, tag, true) }
      }
      index = (index + 1) & mask
    }
  }

  /// Asks for the memory a lookup of `id` of `kind` reads first (the tag and entry at its home),
  /// ahead of the lookup: a loader calls it as soon as it has read a record's identifier and looks
  /// the identifier up once it has read the rest, instead of waiting on a cache miss there (the
  /// tag's load was the slowest step of a record in a rebuild).
  package func prefetch(_ kind: UInt8, _ id: ObjectID) {
    let index = Int(truncatingIfNeeded: hash(kind, id.high, id.low)) & (storage.size - 1)
    kalends_prefetch(storage.tags + index)
    kalends_prefetch(storage.entries + index)
  }

  /// The slot of `id` of `kind`, if it has one.
  package func slot(of kind: UInt8, _ id: ObjectID) -> Int? {
    let (index, _, found) = find(kind, id)
    return found ? Int(storage.entries[index].slot) : nil
  }

  /// The slot of `id` of `kind`, after giving it `next` when it has none; whether it was given.
  /// Slots are below `UInt32.max` (24-byte entries: a third fewer cache lines than with 64-bit slots).
  package mutating func slot(for kind: UInt8, _ id: ObjectID, next: Int) -> (slot: Int, isNew: Bool) {
    if !isKnownUniquelyReferenced(&storage) { storage = storage.copy() }
    if count + 1 > storage.size / 3 * 2 { grow() }
    let (index, tag, found) = find(kind, id)
    if found { return (Int(storage.entries[index].slot), false) }
    storage.tags[index] = tag
    storage.entries[index] = Entry(high: id.high, low: id.low, slot: UInt32(next), kind: kind)
    count += 1
    return (next, true)
  }

  /// Doubles the table.
  private mutating func grow() {
    let old = storage
    storage = Storage(size: old.size * 2)
    let mask = storage.size - 1
    for index in 0..<old.size where old.tags[index] != 0 {
      let entry = old.entries[index]
      let hash = hash(entry.kind, entry.high, entry.low)
      var target = Int(truncatingIfNeeded: hash) & mask
      while storage.tags[target] != 0 { target = (target + 1) & mask }
      storage.tags[target] = Self.tag(hash)
      storage.entries[target] = entry
    }
  }
}
