import Kalends
import NIOCore

/// `GET /v1/instances`' JSON, written byte by byte: a week of all calendars is thousands of
/// instances, and building a `JSONValue` tree and a string per field for each costs far more than
/// the query (docs/server.md has the shape).
enum InstanceJSON {
  /// The JSON array of `instances`, then a newline.
  static func encode(_ instances: [EventInstance]) -> ByteBuffer {
    var out: [UInt8] = []
    out.reserveCapacity(instances.count * 190 + 2)
    out.append(UInt8(ascii: "["))
    for (index, instance) in instances.enumerated() {
      if index > 0 { out.append(UInt8(ascii: ",")) }
      append("{\"id\":\"", to: &out)
      append(instance.id, to: &out)
      append("\",\"calendarId\":\"", to: &out)
      append(instance.calendarID, to: &out)
      append("\",\"occurrenceDate\":\"", to: &out)
      append(instance.occurrenceDate, to: &out)
      append("\",\"start\":", to: &out)
      append(instance.start, to: &out)
      append(",\"end\":", to: &out)
      append(instance.end, to: &out)
      append(instance.isAllDay ? ",\"allDay\":true" : ",\"allDay\":false", to: &out)
      append(instance.isRecurring ? ",\"recurring\":true" : ",\"recurring\":false", to: &out)
      append(instance.isDetached ? ",\"detached\":true}" : ",\"detached\":false}", to: &out)
    }
    append("]\n", to: &out)
    return ByteBuffer(bytes: out)
  }

  private static func append(_ text: StaticString, to out: inout [UInt8]) {
    text.withUTF8Buffer { out.append(contentsOf: $0) }
  }

  private static let hexDigits = Array("0123456789ABCDEF".utf8)

  /// An identifier as `ObjectID.description` writes it: upper-case hex, 8-4-4-4-12.
  private static func append(_ id: ObjectID, to out: inout [UInt8]) {
    let (high, low) = id.halves
    for nibble in 0..<32 {
      if nibble == 8 || nibble == 12 || nibble == 16 || nibble == 20 { out.append(UInt8(ascii: "-")) }
      let word = nibble < 16 ? high : low
      out.append(hexDigits[Int((word >> UInt64(60 - 4 * (nibble % 16))) & 0xF)])
    }
  }

  /// A number in decimal.
  private static func append(_ value: Int64, to out: inout [UInt8]) {
    if value < 0 { out.append(UInt8(ascii: "-")) }
    var magnitude = value.magnitude
    var digits: (UInt64, UInt64, UInt64) = (0, 0, 0)  // 24 bytes: room for 20 digits
    withUnsafeMutableBytes(of: &digits) { buffer in
      var index = buffer.count
      repeat {
        index -= 1
        buffer[index] = UInt8(ascii: "0") + UInt8(magnitude % 10)
        magnitude /= 10
      } while magnitude > 0
      out.append(contentsOf: buffer[index...])
    }
  }

  /// A wall-clock time as `LocalDateTime.description` writes it: `2024-03-10T02:30:00`.
  private static func append(_ local: LocalDateTime, to out: inout [UInt8]) {
    let (dayNumber, time) = local.wallClockSeconds.floorDividedWithRemainder(by: 86_400)
    let (year, month, day) = CivilDate.fromDays(dayNumber)
    pad(year, 4, &out)
    out.append(UInt8(ascii: "-"))
    pad(month, 2, &out)
    out.append(UInt8(ascii: "-"))
    pad(day, 2, &out)
    out.append(UInt8(ascii: "T"))
    pad(time / 3600, 2, &out)
    out.append(UInt8(ascii: ":"))
    pad(time / 60 % 60, 2, &out)
    out.append(UInt8(ascii: ":"))
    pad(time % 60, 2, &out)
  }

  private static func pad(_ value: Int64, _ width: Int, _ out: inout [UInt8]) {
    if value < 0 {
      append(value, to: &out)
      return
    }
    var divisor: Int64 = 1
    for _ in 1..<width { divisor *= 10 }
    while divisor > 1, value < divisor {
      out.append(UInt8(ascii: "0"))
      divisor /= 10
    }
    append(value, to: &out)
  }
}
