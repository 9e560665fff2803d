import Kalends
import KalendsSynthetic
import Testing

@Suite("How blocks of the date-range index are coded")
struct InstanceBlockCodecTests {
  /// A fixed record as the format defines it, built here independently of the product:
  /// `start ‖ item ‖ occurrence ‖ end ‖ flags`, times big-endian with the sign bit flipped.
  static func fixed(start: Int64, item: [UInt8], occurrence: Int64, end: Int64, flags: UInt8) -> [UInt8] {
    func time(_ value: Int64) -> [UInt8] {
      let flipped = UInt64(bitPattern: value) ^ (1 << 63)
      return (0..<8).map { UInt8(truncatingIfNeeded: flipped >> (56 - 8 * $0)) }
    }
    return time(start) + item + time(occurrence) + time(end) + [flags]
  }

  /// Records in start order with times from anywhere in `Int64`, the differences the coding stores
  /// included: occurrences and ends far before and after their starts, equal starts.
  static func records(count: Int, seed: UInt64) -> [UInt8] {
    var random = SeededGenerator(seed: seed)
    let extremes: [Int64] = [.min, .min + 1, -1, 0, 1, .max - 1, .max]
    func time() -> Int64 {
      switch random.next() % 4 {
      case 0: extremes[Int(random.next() % UInt64(extremes.count))]
      case 1: Int64(bitPattern: random.next())
      default: 1_700_000_000 + Int64(random.next() % 400_000_000)
      }
    }
    var starts = (0..<count).map { _ in time() }
    for index in starts.indices where index > 0 && random.next() % 5 == 0 { starts[index] = starts[index - 1] }
    starts.sort()
    var bytes: [UInt8] = []
    for start in starts {
      let item = (0..<16).map { _ in UInt8(truncatingIfNeeded: random.next()) }
      let occurrence = random.next() % 2 == 0 ? start : time()
      let end = random.next() % 3 == 0 ? time() : start &+ Int64(random.next() % 200_000)
      bytes += fixed(start: start, item: item, occurrence: occurrence, end: end, flags: UInt8(random.next() % 8))
    }
    return bytes
  }

  static func encode(_ records: [UInt8]) -> [UInt8] {
    var coded = [UInt8](repeating: 0, count: records.count / 41 * InstanceBlockCodec.maxCodedRecordLength)
    let length = records.withUnsafeBytes { records in
      coded.withUnsafeMutableBytes { InstanceBlockCodec.encode(records, into: $0) }
    }
    return Array(coded[..<length])
  }

  static func decode(_ coded: [UInt8]) -> [UInt8] {
    coded.withUnsafeBytes { InstanceBlockCodec.decoded($0) }
  }

  @Test(arguments: [1, 2, 3, 4, 5] as [UInt64])
  func everyRecordRoundTrips(seed: UInt64) {
    for count in [1, 2, 17, 48] {
      let records = Self.records(count: count, seed: seed &* 100 &+ UInt64(count))
      let coded = Self.encode(records)
      #expect(Self.decode(coded) == records)
      #expect(coded.withUnsafeBytes { InstanceBlockCodec.count($0) } == count)
      #expect(coded.count <= count * InstanceBlockCodec.maxCodedRecordLength)
    }
  }

  /// What the coding is for: a block of a week of meetings (starts minutes apart, an hour long,
  /// occurrences an offset away from the start) takes little more than its identifiers.
  @Test func aTypicalBlockTakesAboutTwentyFourBytesARecord() {
    var records: [UInt8] = []
    for index in 0..<48 {
      let start = 1_767_600_000 + Int64(index) * 900
      let item = (0..<16).map { UInt8(truncatingIfNeeded: index &* 37 &+ $0) }
      records += Self.fixed(start: start, item: item, occurrence: start + 3_600, end: start + 3_600, flags: 1)
    }
    let coded = Self.encode(records)
    #expect(Self.decode(coded) == records)
    #expect(coded.count <= 48 * 25, "\(coded.count) bytes for 48 records")
  }

  /// A damaged block, cut anywhere, reads as its whole records up to the cut: never more, never a
  /// record made of bytes past the end.
  @Test func aCutBlockReadsAsItsWholeRecordsOnly() {
    let records = Self.records(count: 12, seed: 9)
    let coded = Self.encode(records)
    // Where each record ends in the coded block.
    var ends: [Int] = []
    for count in 1...12 { ends.append(Self.encode(Array(records[..<(count * 41)])).count) }
    for length in 0...coded.count {
      let whole = ends.filter { $0 <= length }.count
      #expect(Self.decode(Array(coded[..<length])) == Array(records[..<(whole * 41)]), "cut at \(length)")
    }
  }
}
