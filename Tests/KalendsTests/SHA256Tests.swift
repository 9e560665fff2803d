import Foundation
import Kalends
import KalendsSynthetic
import Testing

@Suite("SHA-256 agrees with FIPS 180-4's examples and Python's hashlib")
struct SHA256Tests {
  static func digest(_ bytes: [UInt8]) -> [UInt8] { bytes.withUnsafeBytes { Array(SHA256.hash(data: $0)) } }
  static func portableDigest(_ bytes: [UInt8]) -> [UInt8] {
    bytes.withUnsafeBytes { Array(SHA256.portableHash(data: $0)) }
  }
  static func hex(_ bytes: [UInt8]) -> String { bytes.map { String(format: "%02x", $0) }.joined() }

  @Test func theStandardsExamples() {
    let examples: [(String, String)] = [
      ("", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"),
      ("abc", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"),
      (
        "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq",
        "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"
      ),
    ]
    for (message, expected) in examples {
      #expect(Self.hex(Self.digest(Array(message.utf8))) == expected, "\(message)")
      #expect(Self.hex(Self.portableDigest(Array(message.utf8))) == expected, "\(message), portable")
    }
    // A million "a"s, fed in pieces that straddle blocks.
    var hasher = SHA256()
    let piece = [UInt8](repeating: 0x61, count: 1_000)
    for _ in 0..<1_000 { piece.withUnsafeBytes { hasher.update(bufferPointer: $0) } }
    #expect(Self.hex(Array(hasher.finalize())) == "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0")
  }

  @Test func randomMessagesHashAsHashlibHashesThem() throws {
    var random = SeededGenerator(seed: 0x5A256)
    // Every length around the padding's edges (55, 56, 63, 64 bytes …), then random ones.
    var messages: [[UInt8]] = (0..<300).map { length in
      (0..<length).map { _ in UInt8.random(in: 0...255, using: &random) }
    }
    for _ in 0..<700 {
      let length = random.chance(0.8) ? random.int(0...400) : random.int(0...20_000)
      messages.append((0..<length).map { _ in UInt8.random(in: 0...255, using: &random) })
    }
    let expected = try HashlibOracle.sha256(messages)
    #expect(expected.count == messages.count)
    var mismatches = 0
    for (message, expected) in zip(messages, expected) {
      // The one-shot hash, the portable compression, and updates of random sizes.
      var hasher = SHA256()
      var offset = 0
      while offset < message.count {
        let size = min(message.count - offset, random.int(0...150))
        message[offset..<(offset + size)].withUnsafeBytes { hasher.update(bufferPointer: $0) }
        offset += size
      }
      let incremental = Array(hasher.finalize())
      if Self.digest(message) != expected || Self.portableDigest(message) != expected || incremental != expected {
        mismatches += 1
      }
    }
    #expect(mismatches == 0, "\(mismatches) of \(messages.count) messages hash differently from hashlib")
  }
}
