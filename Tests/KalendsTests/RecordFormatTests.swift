import Kalends
import KalendsSynthetic
import KalendsTestSupport
import LMDB
import Testing

@Suite("Record format")
struct RecordFormatTests {
  /// The stored bytes of every record of a store, in order.
  func storedRecords(_ store: Store) throws -> [[UInt8]] {
    let count = try store.head().position.rawValue
    return try (1...count).map { try store.environmentValue(at: $0) }
  }

  @Test func theHashIsTheRFC6962LeafHashOfTheRecordBytes() throws {
    try withStore { store, _ in
      try store.append(contentsOf: [.annotation("a"), .annotation("b", by: .client("com.example.app"))])
      let stored = try storedRecords(store)
      var previous = [UInt8](repeating: 0, count: 32)
      let digests = try HashlibOracle.sha256(stored.map { [0x00] + $0.dropLast(32) })
      for (index, bytes) in stored.enumerated() {
        let body = bytes.dropLast(32)
        let expected = digests[index]
        #expect(Array(bytes.suffix(32)) == expected, "record \(index + 1)")
        #expect(Array(body.suffix(32)) == previous, "record \(index + 1) chains to the one before")
        #expect(try store.record(at: LogPosition(UInt64(index + 1))).hash.bytes == expected)
        previous = expected
      }
    }
  }

  @Test func aRecordsBytesFollowTheDocumentedLayout() throws {
    try withStore { store, _ in
      let header = try store.append(.annotation("hé", by: .client("app.x")))
      let bytes = try store.environmentValue(at: header.position.rawValue)
      func bigEndian(_ range: Range<Int>) -> UInt64 { bytes[range].reduce(0) { $0 << 8 | UInt64($1) } }
      #expect(bytes[0] == 1)  // format version
      #expect(bigEndian(1..<9) == 2)  // position
      #expect(Int64(bitPattern: bigEndian(9..<17)) == header.timestamp.rawValue)
      #expect(bytes[17] == 2)  // client
      #expect(bigEndian(18..<20) == 5)
      #expect(Array(bytes[20..<25]) == Array("app.x".utf8))
      #expect(bigEndian(25..<27) == 2)  // annotationAdded
      let payload: [UInt8] = [1, 3] + Array("hé".utf8)
      #expect(bigEndian(27..<31) == UInt64(payload.count))
      #expect(Array(bytes[31..<(31 + payload.count)]) == payload)
      #expect(bytes.count == 31 + payload.count + 64)
    }
  }

  @Test func randomMutationsOfStoredRecordsNeverCrashTheDecoderOrTheVerifier() throws {
    var generator = SeededGenerator(seed: 0x6b61_6c65_6e64_73)
    for round in 0..<40 {
      let directory = TemporaryDirectory()
      do {
        let store = try Store.create(at: directory.storePath, options: StoreOptions(durability: .noSync))
        try store.append(contentsOf: (0..<5).map(note) + [.annotation("x", by: .policy("p"))])
      }
      let position = UInt64.random(in: 1...7, using: &generator)
      try Damage.withLog(directory.storePath) { txn, log, _ in
        var value = try #require(try txn.value(forKey: BigEndianKey(position), in: log))
        switch round % 4 {
        case 0: value = Array(value.prefix(Int.random(in: 0..<value.count, using: &generator)))
        case 1:
          for _ in 0..<Int.random(in: 1...8, using: &generator) {
            value[Int.random(in: 0..<value.count, using: &generator)] = UInt8.random(in: 0...255, using: &generator)
          }
        case 2:
          value.insert(
            UInt8.random(in: 0...255, using: &generator), at: Int.random(in: 0...value.count, using: &generator))
        default: value[0] = UInt8.random(in: 2...255, using: &generator)
        }
        if value.isEmpty { value = [0] }
        try txn.put(value, forKey: BigEndianKey(position), in: log)
      }
      let store = try Store.open(at: directory.storePath, options: StoreOptions(readOnly: true))
      let report = try store.verify()
      let problem = try #require(report.problem, "round \(round): damage to \(position) went unnoticed")
      #expect(problem.position == LogPosition(position))
      _ = try? store.record(at: LogPosition(position))
      _ = try? store.lastRecords(10)
    }
  }

  @Test func payloadLengthsUseLEB128AtEveryBoundary() throws {
    for length in [0, 1, 127, 128, 255, 16_383, 16_384, 70_000] {
      var payload = Payload()
      payload.append(tag: 7, bytes: [UInt8](repeating: 0xee, count: length))
      payload.append(tag: 8, string: "after")
      let lengthBytes = length < 128 ? 1 : length < 16_384 ? 2 : 3
      #expect(payload.bytes.count == 1 + lengthBytes + length + 1 + 1 + 5)
      let fields = try payload.fields()
      #expect(fields.count == 2)
      #expect(fields[0].value.count == length)
      #expect(fields[1].string == "after")
    }
    var payload = Payload()
    payload.append(tag: 1, bytes: [UInt8](repeating: 0, count: 300))
    #expect(Array(payload.bytes.prefix(3)) == [1, 0xac, 0x02])  // 300 = 0b10_0101100
  }

  @Test func typedFieldsRoundTripAndDescribeByTheirSchema() throws {
    var payload = Payload()
    payload.append(tag: 1, string: "text")
    payload.append(tag: 2, unsigned: 1 << 40)
    payload.append(tag: 3, signed: -5)
    payload.append(tag: 4, bool: true)
    payload.append(tag: 4, bool: false)
    let fields = try payload.fields()
    #expect(fields[1].unsigned == 1 << 40)
    #expect(fields[2].signed == -5)
    #expect(fields.compactMap(\.bool) == [true, false])
    let described = try payload.describe(as: .annotationAdded)
    #expect(described.map(\.name) == ["text", "tag2", "tag3", "tag4"])
    #expect(described[0].value == .string("text"))
    #expect(described[3].value == .list([.bytes([1]), .bytes([0])]))
  }

  @Test func malformedPayloadsFailWithAnError() {
    let cases: [[UInt8]] = [
      [0, 0],  // tag 0
      [1],  // length missing
      [1, 0x80],  // length runs past the end
      [1, 5, 1, 2],  // claims 5 bytes, 2 remain
      [1] + [UInt8](repeating: 0xff, count: 10) + [1],  // length too long
    ]
    for bytes in cases {
      #expect(throws: StoreError.self) { try Payload(bytes: bytes).fields() }
    }
  }

  @Test func recordKindsHaveStableNumbersAndNames() {
    #expect(RecordKind.storeCreated.rawValue == 1)
    #expect(RecordKind.annotationAdded.rawValue == 2)
    #expect(RecordKind(name: "annotationAdded") == .annotationAdded)
    #expect(RecordKind(name: "nothing") == nil)
    #expect(RecordKind(rawValue: 777).description == "kind#777")
  }
}
