import Kalends
import KalendsFormats
import NIOCore

/// `GET /v1/instances`' JSON, written straight into the response's buffer: a week of all calendars
/// is thousands of instances, and building a `JSONValue` tree and a string per field for each
/// costs far more than the query (docs/server.md has the shape).
enum InstanceJSON {
  /// The most bytes one instance takes: two identifiers (36 each), a wall-clock time (at most 30
  /// with a year of any width), two decimal numbers (at most 20 each) and the fixed text (≈ 120).
  static let maximumInstanceBytes = 256

  /// The JSON array of `instances`, then a newline.
  static func encode(_ instances: [EventInstance]) -> ByteBuffer {
    let capacity = instances.count * (maximumInstanceBytes + 1) + 3
    var buffer = ByteBufferAllocator().buffer(capacity: capacity)
    buffer.writeWithUnsafeMutableBytes(minimumWritableBytes: capacity) { raw in
      var out = Writer(raw.baseAddress!.assumingMemoryBound(to: UInt8.self))
      out.byte(UInt8(ascii: "["))
      for (index, instance) in instances.enumerated() {
        if index > 0 { out.byte(UInt8(ascii: ",")) }
        out.text("{\"id\":\"")
        out.id(instance.id)
        out.text("\",\"calendarId\":\"")
        out.id(instance.calendarID)
        out.text("\",\"occurrenceDate\":\"")
        out.local(instance.occurrenceDate)
        out.text("\",\"start\":")
        out.number(instance.start)
        out.text(",\"end\":")
        out.number(instance.end)
        out.text(instance.isAllDay ? ",\"allDay\":true" : ",\"allDay\":false")
        out.text(instance.isRecurring ? ",\"recurring\":true" : ",\"recurring\":false")
        out.text(instance.isDetached ? ",\"detached\":true}" : ",\"detached\":false}")
      }
      out.text("]\n")
      return out.count
    }
    return buffer
  }

  /// Writes into memory reserved for it: `encode` reserves the most the instances can take.
  private struct Writer {
    let base: UnsafeMutablePointer<UInt8>
    var count = 0

    init(_ base: UnsafeMutablePointer<UInt8>) { self.base = base }

    mutating func byte(_ value: UInt8) {
      base[count] = value
      count += 1
    }

    mutating func text(_ text: StaticString) {
      (base + count).update(from: text.utf8Start, count: text.utf8CodeUnitCount)
      count += text.utf8CodeUnitCount
    }

    /// An identifier as `ObjectID.description` writes it: upper-case hex, 8-4-4-4-12.
    mutating func id(_ id: ObjectID) {
      let (high, low) = id.halves
      for nibble in 0..<32 {
        if nibble == 8 || nibble == 12 || nibble == 16 || nibble == 20 { byte(UInt8(ascii: "-")) }
        let word = nibble < 16 ? high : low
        let digit = UInt8(truncatingIfNeeded: (word >> UInt64(60 - 4 * (nibble % 16))) & 0xF)
        byte(digit < 10 ? UInt8(ascii: "0") + digit : UInt8(ascii: "A") + digit - 10)
      }
    }

    /// A number in decimal.
    mutating func number(_ value: Int64) {
      if value < 0 { byte(UInt8(ascii: "-")) }
      var magnitude = value.magnitude
      var digits = 1
      var scale: UInt64 = 10
      while digits < 20, magnitude >= scale {
        digits += 1
        scale = scale &* 10
      }
      var index = count + digits
      count = index
      repeat {
        index -= 1
        base[index] = UInt8(ascii: "0") + UInt8(magnitude % 10)
        magnitude /= 10
      } while magnitude > 0
    }

    /// A wall-clock time as `LocalDateTime.description` writes it: `2024-03-10T02:30:00`.
    mutating func local(_ local: LocalDateTime) {
      let (dayNumber, time) = local.wallClockSeconds.floorDividedWithRemainder(by: 86_400)
      let (year, month, day) = CivilDate.fromDays(dayNumber)
      padded(year, 4)
      byte(UInt8(ascii: "-"))
      padded(month, 2)
      byte(UInt8(ascii: "-"))
      padded(day, 2)
      byte(UInt8(ascii: "T"))
      padded(time / 3600, 2)
      byte(UInt8(ascii: ":"))
      padded(time / 60 % 60, 2)
      byte(UInt8(ascii: ":"))
      padded(time % 60, 2)
    }

    private mutating func padded(_ value: Int64, _ width: Int) {
      if value >= 0 {
        var divisor: Int64 = 1
        for _ in 1..<width { divisor *= 10 }
        while divisor > 1, value < divisor {
          byte(UInt8(ascii: "0"))
          divisor /= 10
        }
      }
      number(value)
    }
  }
}
