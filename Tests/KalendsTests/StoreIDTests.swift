import Kalends
import Testing

@Suite("Random identities")
struct StoreIDTests {
  /// Identities are version 4 UUIDs (RFC 9562): the version and variant bits are set, the other
  /// 122 bits random, so thousands of them never collide and every random bit varies (8,192 draws
  /// miss one of a byte's 256 values with a probability of about 10⁻¹⁴).
  @Test func randomIdentitiesAreDistinctVersion4UUIDs() {
    let ids = (0..<8_192).map { _ in StoreID.random() }
    #expect(Set(ids).count == ids.count)
    #expect(ids.allSatisfy { $0.bytes[6] >> 4 == 4 && $0.bytes[8] >> 6 == 0b10 })
    #expect(ids.allSatisfy { $0.description.count == 36 && $0.description.split(separator: "-").count == 5 })
    // Every random bit varies: 4 fixed bits leave 16 values in byte 6, 2 leave 64 in byte 8.
    for position in 0..<16 {
      let expected = position == 6 ? 16 : position == 8 ? 64 : 256
      #expect(Set(ids.map { $0.bytes[position] }).count == expected, "byte \(position)")
    }
    #expect(Set((0..<1_024).map { _ in ObjectID.random() }).count == 1_024)
  }

  /// Identities order as their texts do, without writing them (the fleet's audit sorts thousands).
  @Test func identitiesOrderAsTheirTexts() {
    let ids = (0..<2_048).map { _ in StoreID.random() } + [StoreID(bytes: [UInt8](repeating: 0, count: 16))!]
    #expect(ids.sorted().map(\.description) == ids.map(\.description).sorted())
  }
}
