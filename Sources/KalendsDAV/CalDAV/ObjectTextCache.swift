import Kalends
import KalendsFormats
internal import Synchronization

/// The `calendar-data` of calendar objects as a report writes it (iCalendar, XML-escaped), kept by
/// the identifiers and versions of their items, for one store's server.
///
/// What an object's text holds is a function of its items at those versions: a version is the log
/// position of an item's last save, which names one record of the store for good; an item's
/// `DTSTAMP` is its last change (``ICalendar/serialized(productID:stamp:)``); a zone's `VTIMEZONE`
/// comes from rules fixed for the life of the process. So text kept for a key is the text writing
/// the object again would give, and nothing is ever invalidated: a change of an item is a new
/// version, a new key. Erasure removes an object before it erases its content, so an erased item is
/// never asked for again. Only whole objects are kept — an expansion or a limited recurrence set
/// depends on the request's window and is written each time.
///
/// Bounded in bytes: texts are kept in two generations of at most half the capacity each; when the
/// newer is full it becomes the older and the older is dropped, and a text found in the older
/// moves to the newer — the least recently used go first, with no bookkeeping per lookup.
final class ObjectTextCache: Sendable {
  /// An object's items, by identifier and version.
  struct Key: Hashable {
    let items: [ObjectID]
    let versions: [LogPosition]

    init(_ object: CalendarObject) {
      items = object.events.map(\.id) + object.reminders.map(\.id)
      versions = object.events.map(\.version) + object.reminders.map(\.version)
    }
  }

  private struct Generations {
    var newer: [Key: String] = [:]
    var newerBytes = 0
    var older: [Key: String] = [:]
  }

  /// The most bytes of text kept (UTF-8), the two generations together.
  let capacity: Int
  private let generations = Mutex(Generations())

  /// A cache of at most `capacity` bytes of text (64 MiB unless given).
  init(capacity: Int = 64 << 20) { self.capacity = capacity }

  /// The XML-escaped iCalendar text of `object`: kept, or written now and kept.
  func escapedText(of object: CalendarObject) -> String {
    // Items never saved have no version to key them by.
    guard object.version != .none else { return XMLText.escaped(object.file.serialized()) }
    let key = Key(object)
    if let text = generations.withLock({ Self.take(key, from: &$0, capacity: capacity) }) { return text }
    let text = XMLText.escaped(object.file.serialized())
    generations.withLock { Self.keep(text, for: key, in: &$0, capacity: capacity) }
    return text
  }

  /// How many texts are kept, for tests.
  var count: Int { generations.withLock { $0.newer.count + $0.older.count } }

  private static func take(_ key: Key, from generations: inout Generations, capacity: Int) -> String? {
    if let text = generations.newer[key] { return text }
    guard let text = generations.older.removeValue(forKey: key) else { return nil }
    keep(text, for: key, in: &generations, capacity: capacity)
    return text
  }

  private static func keep(_ text: String, for key: Key, in generations: inout Generations, capacity: Int) {
    let bytes = text.utf8.count
    guard bytes <= capacity / 2, generations.newer[key] == nil else { return }
    if generations.newerBytes + bytes > capacity / 2 {
      generations.older = generations.newer
      generations.newer = [:]
      generations.newerBytes = 0
    }
    generations.newer[key] = text
    generations.newerBytes += bytes
  }
}
