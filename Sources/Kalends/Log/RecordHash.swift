/// A SHA-256 digest that identifies a record and, through the chain, every record before it.
///
/// Stored inline (four 64-bit words), so records carry their hashes without allocating.
public struct RecordHash: Hashable, Sendable, CustomStringConvertible {
  let w0: UInt64
  let w1: UInt64
  let w2: UInt64
  let w3: UInt64

  init(words w0: UInt64, _ w1: UInt64, _ w2: UInt64, _ w3: UInt64) {
    (self.w0, self.w1, self.w2, self.w3) = (w0, w1, w2, w3)
  }

  /// Wraps 32 digest bytes; `nil` for any other count.
  public init?(bytes: some Collection<UInt8>) {
    guard bytes.count == 32 else { return nil }
    var iterator = bytes.makeIterator()
    func word() -> UInt64 {
      var word: UInt64 = 0
      for _ in 0..<8 { word = word << 8 | UInt64(iterator.next()!) }
      return word
    }
    let (w0, w1, w2, w3) = (word(), word(), word(), word())
    self.init(words: w0, w1, w2, w3)
  }

  init(digest: SHA256.Digest) {
    self = digest.withUnsafeBytes { buffer in
      func word(_ index: Int) -> UInt64 {
        UInt64(bigEndian: buffer.loadUnaligned(fromByteOffset: 8 * index, as: UInt64.self))
      }
      return RecordHash(words: word(0), word(1), word(2), word(3))
    }
  }

  /// The hash that the first record chains to: 32 zero bytes.
  public static let genesis = RecordHash(words: 0, 0, 0, 0)

  /// The 32 digest bytes.
  public var bytes: [UInt8] {
    var out = [UInt8]()
    out.reserveCapacity(32)
    appendBytes(to: &out)
    return out
  }

  func appendBytes(to out: inout [UInt8]) {
    withBytes { out.append(contentsOf: $0) }
  }

  /// Calls `body` with the 32 digest bytes.
  func withBytes<R>(_ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
    try withUnsafeBytes(of: (w0.bigEndian, w1.bigEndian, w2.bigEndian, w3.bigEndian), body)
  }

  /// Parses 64 hexadecimal digits.
  public init?(hex: String) {
    guard hex.utf8.count == 64, let bytes = Hex.decode(hex) else { return nil }
    self.init(bytes: bytes)
  }

  /// Lowercase hexadecimal, 64 digits.
  public var hex: String { Hex.encode(bytes) }

  public var description: String { hex }

  /// The first 12 hexadecimal digits, for tables.
  public var shortHex: String { String(hex.prefix(12)) }
}

/// Lowercase hexadecimal encoding.
package enum Hex {
  package static func encode(_ bytes: some Sequence<UInt8>) -> String {
    let digits = Array("0123456789abcdef".utf8)
    var out = [UInt8]()
    for byte in bytes {
      out.append(digits[Int(byte >> 4)])
      out.append(digits[Int(byte & 0x0f)])
    }
    return String(decoding: out, as: UTF8.self)
  }

  /// The bytes of an even number of hexadecimal digits (either case); `nil` for anything else.
  package static func decode(_ text: some StringProtocol) -> [UInt8]? {
    let utf8 = Array(text.utf8)
    guard utf8.count % 2 == 0 else { return nil }
    var bytes = [UInt8]()
    bytes.reserveCapacity(utf8.count / 2)
    for index in stride(from: 0, to: utf8.count, by: 2) {
      guard let high = nibble(utf8[index]), let low = nibble(utf8[index + 1]) else { return nil }
      bytes.append(high << 4 | low)
    }
    return bytes
  }

  private static func nibble(_ c: UInt8) -> UInt8? {
    switch c {
    case UInt8(ascii: "0")...UInt8(ascii: "9"): c - UInt8(ascii: "0")
    case UInt8(ascii: "a")...UInt8(ascii: "f"): c - UInt8(ascii: "a") + 10
    case UInt8(ascii: "A")...UInt8(ascii: "F"): c - UInt8(ascii: "A") + 10
    default: nil
    }
  }
}
