/// The D-Bus wire format of the few messages ``SessionBus`` sends and reads (the D-Bus
/// Specification, "Message Protocol"): little-endian, each value aligned to its type's size, a
/// header of fixed fields and an array of `(code, variant)` fields, then the body from an 8-byte
/// boundary.
struct DBusMessage {
  /// What a message is (the header's second byte).
  enum Kind: UInt8 {
    case methodCall = 1
    case methodReturn = 2
    case error = 3
    case signal = 4
  }

  /// A value of a body or a header field.
  enum Value {
    case byte(UInt8)
    case uint32(UInt32)
    case int32(Int32)
    case string(String)
    case objectPath(String)
    case signature(String)
    /// An array of strings (`as`).
    case strings([String])
    /// An empty dictionary of variants (`a{sv}`).
    case emptyVariantDictionary
  }

  /// Bytes written with D-Bus alignment, counted from the message's start.
  struct Writer {
    private(set) var bytes: [UInt8] = []

    mutating func align(_ boundary: Int) {
      while bytes.count % boundary != 0 { bytes.append(0) }
    }

    mutating func uint32(_ value: UInt32) {
      align(4)
      withUnsafeBytes(of: value.littleEndian) { bytes += $0 }
    }

    mutating func write(_ value: Value) {
      switch value {
      case .byte(let byte): bytes.append(byte)
      case .uint32(let number): uint32(number)
      case .int32(let number): uint32(UInt32(bitPattern: number))
      case .string(let text), .objectPath(let text):
        let utf8 = Array(text.utf8)
        uint32(UInt32(utf8.count))
        bytes += utf8 + [0]
      case .signature(let text):
        let utf8 = Array(text.utf8)
        bytes.append(UInt8(utf8.count))
        bytes += utf8 + [0]
      case .strings(let texts):
        uint32(0)
        let lengthAt = bytes.count - 4
        align(4)
        let start = bytes.count
        for text in texts { write(.string(text)) }
        setLength(at: lengthAt, UInt32(bytes.count - start))
      case .emptyVariantDictionary:
        uint32(0)
        // A dictionary entry is 8-aligned, and the padding to it is written even with none.
        align(8)
      }
    }

    mutating func setLength(at offset: Int, _ length: UInt32) {
      withUnsafeBytes(of: length.littleEndian) { raw in
        for (index, byte) in raw.enumerated() { bytes[offset + index] = byte }
      }
    }
  }

  /// A method call's bytes: `serial`, the destination, object path, interface and member, and the
  /// body `values` of `signature`.
  static func methodCall(
    serial: UInt32, destination: String, path: String, interface: String, member: String, signature: String = "",
    body values: [Value] = []
  ) -> [UInt8] {
    var body = Writer()
    for value in values { body.write(value) }
    var fields: [(UInt8, Value)] = [
      (1, .objectPath(path)), (2, .string(interface)), (3, .string(member)), (6, .string(destination)),
    ]
    if !signature.isEmpty { fields.append((8, .signature(signature))) }
    var header = Writer()
    for byte: UInt8 in [0x6C, Kind.methodCall.rawValue, 0, 1] { header.write(.byte(byte)) }
    header.uint32(UInt32(body.bytes.count))
    header.uint32(serial)
    header.uint32(0)
    let lengthAt = header.bytes.count - 4
    let start = header.bytes.count
    for (code, value) in fields {
      header.align(8)
      header.write(.byte(code))
      header.write(.signature(Self.signature(of: value)))
      header.write(value)
    }
    header.setLength(at: lengthAt, UInt32(header.bytes.count - start))
    header.align(8)
    // The body was written from offset 0, and every value of it aligns the same way from an
    // 8-byte boundary.
    return header.bytes + body.bytes
  }

  private static func signature(of value: Value) -> String {
    switch value {
    case .byte: "y"
    case .uint32: "u"
    case .int32: "i"
    case .string: "s"
    case .objectPath: "o"
    case .signature: "g"
    case .strings: "as"
    case .emptyVariantDictionary: "a{sv}"
    }
  }

  /// What ``SessionBus`` needs of a message read: its kind, the serial it answers, its error name
  /// and its body's first string (an error's text), if any.
  struct Received {
    var kind: Kind?
    var replySerial: UInt32?
    var errorName: String?
    var firstString: String?
  }

  /// How many bytes the message starting `bytes` takes, once its 16 fixed header bytes are there;
  /// `nil` when they are not, or it is not little-endian (this client asks nothing of a
  /// big-endian peer, and refuses one).
  static func length(of bytes: ArraySlice<UInt8>) -> Int? {
    guard bytes.count >= 16, bytes.first == 0x6C else { return nil }
    let base = bytes.startIndex
    let body = Int(read32(bytes, base + 4))
    let fields = Int(read32(bytes, base + 12))
    let header = (16 + fields + 7) / 8 * 8
    return header + body
  }

  /// The fields of the whole message `bytes` (``length(of:)`` long) that ``SessionBus`` reads.
  static func parse(_ bytes: ArraySlice<UInt8>) -> Received {
    let base = bytes.startIndex
    var received = Received(kind: Kind(rawValue: bytes[base + 1]))
    let fieldsEnd = 16 + Int(read32(bytes, base + 12))
    var offset = 16
    func aligned(_ boundary: Int) { offset = (offset + boundary - 1) / boundary * boundary }
    func string() -> String? {
      aligned(4)
      guard offset + 4 <= bytes.count else { return nil }
      let length = Int(read32(bytes, base + offset))
      offset += 4
      guard offset + length < bytes.count else { return nil }
      defer { offset += length + 1 }
      return String(decoding: bytes[(base + offset)..<(base + offset + length)], as: UTF8.self)
    }
    while offset < fieldsEnd {
      aligned(8)
      guard offset + 3 <= fieldsEnd else { break }
      let code = bytes[base + offset]
      let signatureLength = Int(bytes[base + offset + 1])
      guard offset + 3 + signatureLength <= bytes.count else { break }
      let type = bytes[base + offset + 2]
      offset += 2 + signatureLength + 1
      switch type {
      case UInt8(ascii: "u"):
        aligned(4)
        guard offset + 4 <= bytes.count else { return received }
        if code == 5 { received.replySerial = read32(bytes, base + offset) }
        offset += 4
      case UInt8(ascii: "s"), UInt8(ascii: "o"):
        let text = string()
        if code == 4 { received.errorName = text }
      case UInt8(ascii: "g"):
        guard offset < bytes.count else { return received }
        offset += Int(bytes[base + offset]) + 2
      default:
        return received
      }
    }
    offset = (fieldsEnd + 7) / 8 * 8
    if offset < bytes.count { received.firstString = string() }
    return received
  }

  private static func read32(_ bytes: ArraySlice<UInt8>, _ at: Int) -> UInt32 {
    UInt32(bytes[at]) | UInt32(bytes[at + 1]) << 8 | UInt32(bytes[at + 2]) << 16 | UInt32(bytes[at + 3]) << 24
  }
}
