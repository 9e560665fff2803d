import KalendsFormats
import Testing

@testable import Kalends
@testable import KalendsDAV

/// The server's cache of calendar objects' text: what it gives is what writing the object gives,
/// for the versions asked, within its bytes.
@Suite("The cache of calendar objects' text")
struct ObjectTextCacheTests {
  /// Objects of one event of `title` each, saved at positions from `first`.
  static func objects(_ count: Int, title: String, first: UInt64 = 1) -> [CalendarObject] {
    (0..<count).map { index in
      var event = Event(
        calendarID: nil, title: title, start: LocalDateTime(year: 2027, month: 1, day: 1, hour: 9),
        end: LocalDateTime(year: 2027, month: 1, day: 1, hour: 10), timeZone: "Europe/Paris")
      event.version = LogPosition(rawValue: first + UInt64(index))
      event.lastModifiedDate = Timestamp(rawValue: 1_800_000_000_000_000)
      return CalendarObject(uid: event.externalID, events: [event])
    }
  }

  @Test func itGivesWhatWritingGivesAndStaysWithinItsBytes() throws {
    let objects = Self.objects(200, title: "Planning & review")
    let size = XMLText.escaped(objects[0].file.serialized()).utf8.count
    let cache = ObjectTextCache(capacity: size * 20)
    for object in objects {
      #expect(cache.escapedText(of: object) == XMLText.escaped(object.file.serialized()))
    }
    // Two generations of at most half the capacity each.
    #expect(cache.count <= 20 && cache.count >= 10, "\(cache.count) texts kept")
    // A text kept is the one for that version: the same item at a newer version is written anew.
    var moved = objects[199]
    moved.events[0].title = "Moved"
    moved.events[0].version = LogPosition(rawValue: 10_000)
    #expect(cache.escapedText(of: moved).contains("SUMMARY:Moved"))
    #expect(cache.escapedText(of: objects[199]).contains("SUMMARY:Planning &amp; review"))
    // Items never saved are written each time, never kept.
    let before = cache.count
    #expect(cache.escapedText(of: Self.objects(1, title: "New", first: 0)[0]).contains("SUMMARY:New"))
    #expect(cache.count == before)
    // A text larger than half the capacity is written, never kept.
    let small = ObjectTextCache(capacity: size)
    #expect(small.escapedText(of: objects[0]) == XMLText.escaped(objects[0].file.serialized()))
    #expect(small.count == 0)
  }

  @Test func theTextOfAnUnchangedObjectIsTheSameWhenever() throws {
    let object = Self.objects(1, title: "Planning")[0]
    let first = object.file.serialized(stamp: Timestamp(rawValue: 1_000_000))
    let later = object.file.serialized(stamp: Timestamp(rawValue: 2_000_000_000_000_000))
    #expect(first == later)
    #expect(first.contains("DTSTAMP:20270115T080000Z"))
  }
}
