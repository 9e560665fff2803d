/// The parts of a TZif file (RFC 8536) that time-zone rules need: transitions, their offsets, and the
/// POSIX TZ footer that applies after the last transition. Leap-second records are ignored.
struct TZifFile: Sendable {
  /// Transition instants, seconds since 1970 UTC, ascending.
  var transitions: [Int64] = []
  /// The UTC offset (seconds east) in effect from each transition on.
  var offsets: [Int64] = []
  /// The offset before the first transition: the first standard-time type, as Python's `zoneinfo` does.
  var initialOffset: Int64 = 0
  /// Every offset the file's types define.
  var allOffsets: [Int64] = []
  /// The POSIX TZ string footer, if any.
  var footer: PosixTimeZoneRule?

  enum Failure: Error { case malformed(String) }

  init(bytes: [UInt8]) throws(Failure) {
    var reader = Reader(bytes: bytes)
    guard try reader.take(4) == Array("TZif".utf8) else { throw .malformed("no TZif magic") }
    let version = try reader.take(1)[0]
    var header = try reader.header()
    if version >= UInt8(ascii: "2") {
      try reader.skip(
        header.timeCount * 5 + header.typeCount * 6 + header.charCount + header.leapCount * 8 + header.isStdCount
          + header.isUTCCount)
      guard try reader.take(4) == Array("TZif".utf8) else { throw .malformed("no second TZif header") }
      _ = try reader.take(1)
      header = try reader.header()
    }
    let wide = version >= UInt8(ascii: "2")
    var times: [Int64] = []
    for _ in 0..<header.timeCount { times.append(wide ? try reader.int64() : Int64(try reader.int32())) }
    let indices = try reader.take(header.timeCount)
    guard header.typeCount > 0 else { throw .malformed("no local time types") }
    var types: [(offset: Int64, isDST: Bool)] = []
    for _ in 0..<header.typeCount {
      let offset = Int64(try reader.int32())
      let isDST = try reader.take(1)[0] != 0
      _ = try reader.take(1)
      types.append((offset, isDST))
    }
    try reader.skip(header.charCount + header.leapCount * (wide ? 12 : 8) + header.isStdCount + header.isUTCCount)
    for index in indices where Int(index) >= types.count { throw .malformed("transition type out of range") }
    transitions = times
    offsets = indices.map { types[Int($0)].offset }
    initialOffset = (types.first(where: { !$0.isDST }) ?? types[0]).offset
    allOffsets = types.map(\.offset)
    if wide, reader.remaining > 2, (try? reader.take(1)) == [UInt8(ascii: "\n")] {
      let rest = reader.rest.prefix(while: { $0 != UInt8(ascii: "\n") })
      footer = PosixTimeZoneRule(String(decoding: rest, as: UTF8.self))
    }
  }

  private struct Reader {
    let bytes: [UInt8]
    var index = 0

    var remaining: Int { bytes.count - index }
    var rest: ArraySlice<UInt8> { bytes[index...] }

    mutating func take(_ count: Int) throws(Failure) -> [UInt8] {
      guard count >= 0, count <= remaining else { throw .malformed("truncated") }
      defer { index += count }
      return Array(bytes[index..<index + count])
    }

    mutating func skip(_ count: Int) throws(Failure) { _ = try take(count) }

    mutating func int32() throws(Failure) -> Int32 {
      let b = try take(4)
      return Int32(bitPattern: UInt32(b[0]) << 24 | UInt32(b[1]) << 16 | UInt32(b[2]) << 8 | UInt32(b[3]))
    }

    mutating func int64() throws(Failure) -> Int64 {
      let high = Int64(try int32())
      let low = Int64(UInt32(bitPattern: try int32()))
      return high << 32 | low
    }

    mutating func header() throws(Failure) -> Header {
      try skip(15)
      var counts: [Int] = []
      for _ in 0..<6 {
        let count = Int(try int32())
        guard (0...1_000_000).contains(count) else { throw .malformed("implausible count") }
        counts.append(count)
      }
      return Header(
        isUTCCount: counts[0], isStdCount: counts[1], leapCount: counts[2], timeCount: counts[3], typeCount: counts[4],
        charCount: counts[5])
    }
  }

  private struct Header {
    var isUTCCount, isStdCount, leapCount, timeCount, typeCount, charCount: Int
  }
}
