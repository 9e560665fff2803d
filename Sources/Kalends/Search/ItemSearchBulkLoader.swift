internal import Foundation
internal import LMDB

/// Rebuilds ``ItemSearchProjection`` from the whole log in memory, then writes both databases in
/// key order with `MDB_APPEND`.
///
/// Each item's `search.items` entry (its calendar and words, exactly as the projection writes it)
/// is laid end to end with the others in one buffer as the records are applied, and found by
/// ``ObjectSlots``: a million events are not a million arrays. The word keys are then sorted as
/// places in that buffer, by word and, for one word, by item (the items are put in key order
/// first, so the item's rank decides).
struct ItemSearchBulkLoader: ProjectionBulkLoader {
  let projection: ItemSearchProjection

  private var slots = ObjectSlots()
  /// Each slot's kind and id, and where its entry is in ``entries`` (`length` -1: not live).
  private var keys: [(kind: UInt8, id: ObjectID)] = []
  private var places: [(offset: Int, length: Int)] = []
  private var entries: [UInt8] = []
  private var scratch = SearchWords.Scratch()

  /// What ``prepare()`` lays out: the live slots in key order, and every word of them, sorted.
  private var live: [Int] = []
  private var words: [Posting] = []

  /// A word of an item: its first 8 bytes as a big-endian number (0 after its end: words hold no
  /// 0 byte, and a word sorts before the longer words it begins, as its key's 0 does), where it is
  /// in ``entries``, its length and the rank of its item. Most comparisons are of the numbers
  /// alone, without a look into ``entries``.
  private struct Posting {
    var head: UInt64
    var offset: Int
    var length: Int32
    var item: Int32
  }
  private var written = 0

  init(_ projection: ItemSearchProjection) { self.projection = projection }

  mutating func reserve(records: Int, bytes: Int) {
    slots = ObjectSlots(capacity: records)
  }

  mutating func apply(_ header: LogRecordHeader, payload: RawSpan) throws {
    switch header.kind {
    case .eventSaved, .reminderSaved:
      let offset = entries.count
      let (kind, id) = try ItemSearchProjection.entry(header, payload: payload, into: &entries, scratch: &scratch)
      set(kind, id, (offset, entries.count - offset))
    case .eventRemoved, .reminderRemoved:
      let id = try PayloadFieldIndex(payload).requiredObjectID(1, in: payload)
      set(header.kind == .eventRemoved ? .event : .reminder, id, (0, -1))
    case .calendarRemoved:
      removeCalendar(try PayloadFieldIndex(payload).requiredObjectID(1, in: payload))
    case .contentErased:
      let fields = try PayloadReader(bytes: payload)
      let id = try fields.requiredObjectID(2)
      switch try fields.unsigned(1).flatMap({ ObjectKind(rawValue: UInt8(truncatingIfNeeded: $0)) }) {
      case .calendar: removeCalendar(id)
      case .event: set(.event, id, (0, -1))
      case .reminder: set(.reminder, id, (0, -1))
      case .source, nil: break
      }
    default:
      break
    }
  }

  private mutating func set(_ kind: ObjectKind, _ id: ObjectID, _ place: (offset: Int, length: Int)) {
    let (slot, isNew) = slots.slot(for: kind.rawValue, id, next: keys.count)
    if isNew {
      keys.append((kind.rawValue, id))
      places.append(place)
    } else {
      places[slot] = place
    }
  }

  /// Drops the items of a calendar: a look at every item, as the projection's is.
  private mutating func removeCalendar(_ calendar: ObjectID) {
    let bytes = calendar.bytes
    entries.withUnsafeBytes { buffer in
      for slot in places.indices where places[slot].length >= 16 {
        if buffer[places[slot].offset..<places[slot].offset + 16].elementsEqual(bytes) { places[slot].length = -1 }
      }
    }
  }

  mutating func prepare() throws {
    slots = ObjectSlots()
    var order = places.indices.compactMap { slot in places[slot].length >= 16 ? (keys[slot], slot) : nil }
    order.sort { a, b in a.0.kind != b.0.kind ? a.0.kind < b.0.kind : a.0.id < b.0.id }
    live = order.map(\.1)
    entries.withUnsafeBytes { buffer in
      for (rank, slot) in live.enumerated() {
        var start = places[slot].offset + 16
        for index in start..<places[slot].offset + places[slot].length where buffer[index] == 0 {
          var head: UInt64 = 0
          for byte in buffer[start..<min(index, start + 8)] { head = head << 8 | UInt64(byte) }
          head <<= 8 * UInt64(8 - min(index - start, 8))
          words.append(Posting(head: head, offset: start, length: Int32(index - start), item: Int32(rank)))
          start = index + 1
        }
      }
      let base = buffer.baseAddress!
      words.sort { a, b in
        if a.head != b.head { return a.head < b.head }
        if a.length > 8 && b.length > 8 {
          let order = memcmp(base + a.offset + 8, base + b.offset + 8, Int(min(a.length, b.length)) - 8)
          if order != 0 { return order < 0 }
        }
        return a.length != b.length ? a.length < b.length : a.item < b.item
      }
    }
  }

  mutating func write(in txn: inout WriteTransaction, limit: Int) throws -> Bool {
    let total = words.count + live.count
    let end = min(total, written + limit)
    // Keys are at most a word and 18 bytes (`search.words`), written in place.
    let key = UnsafeMutableRawBufferPointer.allocate(byteCount: SearchWords.maximumLength + 18, alignment: 8)
    defer { key.deallocate() }
    try entries.withUnsafeBytes { buffer in
      if written < words.count {
        try txn.withCursor(on: projection.words) { cursor in
          for row in written..<min(end, words.count) {
            let word = words[row]
            let item = keys[live[Int(word.item)]]
            let length = Int(word.length)
            key.copyMemory(from: UnsafeRawBufferPointer(rebasing: buffer[word.offset..<word.offset + length]))
            key[length] = 0
            key[length + 1] = item.kind
            item.id.store(in: key, at: length + 2)
            try cursor.put([UInt8](), forKey: UnsafeRawBufferPointer(rebasing: key[..<(length + 18)]), options: .append)
          }
        }
      }
      if end > words.count {
        try txn.withCursor(on: projection.items) { cursor in
          for row in max(written, words.count)..<end {
            let slot = live[row - words.count]
            key[0] = keys[slot].kind
            keys[slot].id.store(in: key, at: 1)
            let place = places[slot]
            try cursor.put(
              UnsafeRawBufferPointer(rebasing: buffer[place.offset..<place.offset + place.length]),
              forKey: UnsafeRawBufferPointer(rebasing: key[..<17]), options: .append)
          }
        }
      }
    }
    written = end
    return written == total
  }
}
